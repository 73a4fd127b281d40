import { errorMessage } from "../../errors.ts";
import type { Flow } from "../../protocol/flow.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { say } from "../kit/keys/helpers.ts";

/** The flows view's actions: the same client calls as `troupe flow ls|run|enable|disable`. */

/** The selection as shown: the one chosen, or the first when that one is gone. */
export function selectedFlow(env: Pick<KeyEnv, "ui">): Flow | null {
  const list = env.ui.flows.list ?? [];
  return list.find((f) => f.name === env.ui.flows.selected) ?? list[0] ?? null;
}

/** Reads the flows afresh: they publish no events, so the view asks when it opens and after each action. */
export function reloadFlows(env: KeyEnv): void {
  env.deps.client.flows().then(
    (flows) => env.dispatch({ type: "flowsLoaded", flows }),
    (err: unknown) => env.dispatch({ type: "flowsFailed", error: errorMessage(err) }),
  );
}

export const noFlow = (env: KeyEnv) => (selectedFlow(env) ? null : "no flow selected");

export function toggleFlow(env: KeyEnv): void {
  const f = selectedFlow(env);
  if (!f) return;
  (f.enabled ? env.deps.client.disableFlow(f.name) : env.deps.client.enableFlow(f.name)).then(
    (updated) => {
      say(env, `${updated.name} ${updated.enabled ? "enabled" : "disabled"}`);
      reloadFlows(env);
    },
    (err: unknown) => say(env, errorMessage(err), "error"),
  );
}
