import { errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import { STATUS, isLive } from "../../protocol/status.ts";
import { getProvider } from "../../../providers/index.ts";
import { ch } from "../keys/key-spec.ts";
import { openStop } from "../dialogs/agent-dialogs.ts";
import { say, type Binding, type KeyEnv } from "../keys/binding.ts";

/** How long `t` on a running agent waits for its stop before giving up on the attach. */
const STOP_WAIT_MS = 15_000;

/** Why `t` cannot take the selected agent over, or null. */
export function notAttachable(env: KeyEnv): string | null {
  const a = env.selected;
  if (!a) return "no agent selected";
  if (!getProvider(a.provider)?.interactive) return `the ${a.provider} provider has no interactive mode`;
  if (a.status === "attached") return `${a.name} is attached already`;
  // a running one is stopped first (asked); a blocked one waits for its account
  return STATUS[a.status].attachable || isLive(a.status) ? null : `${a.name} is ${a.status}: only a waiting, done, failed or stopped agent is taken over`;
}

/**
 * The dashboard hands the terminal over: Ink leaves the alternate screen and lets go of the
 * keyboard, the provider's interactive CLI runs the agent's session (`troupe attach`), and the
 * dashboard comes back redrawn when it exits.
 */
export async function takeOver(env: KeyEnv, agent: Agent): Promise<void> {
  try {
    const r = await env.suspend(() => env.deps.attach(agent.id));
    env.mirror.upsertAgent(r.agent);
    if (r.problem) say(env, r.problem, "error");
    else say(env, `back from ${r.agent.name}: ${r.agent.status}`);
  } catch (err) {
    say(env, errorMessage(err), "error");
  }
}

/** After the stop the confirm dialog asked for: once it is no longer running, take it over. */
export async function stopThenTakeOver(env: KeyEnv, agent: Agent): Promise<void> {
  const deadline = Date.now() + STOP_WAIT_MS;
  let now = agent;
  while (isLive(now.status) && Date.now() < deadline) now = await env.deps.client.waitAgent(agent.id, deadline - Date.now());
  if (isLive(now.status)) return say(env, `${agent.name} did not stop within ${STOP_WAIT_MS / 1000} s`, "error");
  await takeOver(env, now);
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
