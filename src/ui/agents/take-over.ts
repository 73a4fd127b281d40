import { errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import { isLive } from "../../protocol/status.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { say } from "../kit/keys/helpers.ts";

/** How long `t` on a running agent waits for its stop before giving up on the attach. */
const STOP_WAIT_MS = 15_000;

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
  while (isLive(now.status) && Date.now() < deadline) now = await env.deps.client.waitAgent(agent.id, { wait: deadline - Date.now() });
  if (isLive(now.status)) return say(env, `${agent.name} did not stop within ${STOP_WAIT_MS / 1000} s`, "error");
  await takeOver(env, now);
}
