import { errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { DiffLine } from "../../protocol/review.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";

/** The daemon an agent's review lives on (its own: the one that computes its diff). */
export function reviewClient(env: KeyEnv) {
  return env.deps.client;
}

/** The diff view over the current one, filled when `lines` come; `agentId`: whose work it is (its review loads beside). */
export function openDiff(env: KeyEnv, key: string, title: string, agentId: string | null, lines: Promise<DiffLine[]>): void {
  const { dispatch } = env;
  dispatch({ type: "diffOpen", key, title, agentId });
  lines.then((l) => dispatch({ type: "diffLoaded", key, lines: l }), (err: unknown) => dispatch({ type: "diffFailed", key, error: errorMessage(err) }));
  if (agentId) loadReview(env, key, agentId);
}

/** An agent's diff, computed by its daemon, with its pending review. */
export function openAgentDiff(env: KeyEnv, agent: Agent, title: string): void {
  openDiff(env, agent.id, title, agent.id, env.deps.loadDiff(agent));
}

export function loadReview(env: KeyEnv, key: string, agentId: string): void {
  reviewClient(env).review(agentId).then(
    (r) => env.dispatch({ type: "reviewLoaded", key, comments: r.comments }),
    (err: unknown) => env.dispatch({ type: "reviewFailed", key, error: errorMessage(err) }),
  );
}

/** Plain text lines (an initiative's diff): shown, coloured as a diff, with nothing to comment on. */
export function textLines(text: string): DiffLine[] {
  return text ? text.replace(/\n$/, "").split("\n").map((t) => ({ text: t, kind: "note" as const })) : [];
}
