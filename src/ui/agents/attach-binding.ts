import { STATUS, isLive } from "../../protocol/status.ts";
import { getProvider } from "../../../providers/index.ts";
import { ch } from "../kit/keys/key-spec.ts";
import { openStop } from "./dialogs/agent-dialogs.tsx";
import type { Binding, KeyEnv } from "../kit/keys/binding.ts";
import { takeOver } from "./take-over.ts";

/** Why `t` cannot take the selected agent over, or null. */
function notAttachable(env: KeyEnv): string | null {
  const a = env.selected;
  if (!a) return "no agent selected";
  if (!getProvider(a.provider)?.interactive) return `the ${a.provider} provider has no interactive mode`;
  if (a.status === "attached") return `${a.name} is attached already`;
  // a running one is stopped first (asked); a blocked one waits for its account
  return STATUS[a.status].attachable || isLive(a.status) ? null : `${a.name} is ${a.status}: only a waiting, done, failed or stopped agent is taken over`;
}

export const attachBinding: Binding = {
  command: "attach",
  keys: [ch("t")],
  help: "take the agent over: its CLI's interactive mode on this terminal (a running one is stopped first, asked)",
  hint: "take over",
  disabled: notAttachable,
  run: (env) => {
    const a = env.selected;
    if (!a) return;
    if (isLive(a.status)) {
      openStop(env, a, true);
      return "dialog";
    }
    void takeOver(env, a);
    return "dialog";
  },
};
