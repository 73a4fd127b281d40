import type { PromptResponse } from "@agentclientprotocol/sdk";

export type Usage = { inputTokens?: number; outputTokens?: number; costUsd?: number };

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function usageOf(inputTokens: number | undefined, outputTokens: number | undefined): Usage {
  return { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) };
}

/**
 * The session's cost so far in US dollars, from a `usage_update` (the protocol's unstable part:
 * `cost: {amount, currency}`, the whole session's, as opencode 1.18.33 sends after each prompt when
 * its model has a price and a context limit); undefined for any other update or currency.
 */
export function sessionCostOf(update: unknown): number | undefined {
  const u = rec(update);
  if (u.sessionUpdate !== "usage_update") return undefined;
  const cost = rec(u.cost);
  return cost.currency === "USD" ? num(cost.amount) : undefined;
}

/**
 * What a turn cost: the session's cost at its end less the cost before it. Undefined when the agent
 * reported none in the turn, or when the cost before it is unknown (a loaded session whose agent
 * said nothing of its cost while loading): never the earlier runs' cost counted again.
 */
export function turnCost(before: number | undefined, after: number | undefined): number | undefined {
  return before === undefined || after === undefined ? undefined : Math.max(0, after - before);
}

/**
 * What a turn's answer says of its usage, where the agent reports it: ACP's `usage` (in the
 * protocol's unstable part: `inputTokens`, `outputTokens`), or Gemini CLI's `_meta.quota.token_count`;
 * else what its updates said (`during`, Qwen Code's). No agent seen reports a cost in US dollars.
 */
export function turnUsage(r: PromptResponse, during: Usage = {}): Usage {
  const usage = rec((r as Record<string, unknown>).usage);
  const quota = rec(rec(rec(r._meta).quota).token_count);
  const own = usageOf(num(usage.inputTokens) ?? num(quota.input_tokens), num(usage.outputTokens) ?? num(quota.output_tokens));
  return Object.keys(own).length ? own : during;
}

/**
 * The usage of the model calls a turn's `session/update`s report, summed: Qwen Code (checked with
 * 0.24.4) answers `session/prompt` with its stop reason alone and reports each model call's tokens
 * as `_meta.usage` of an update (an empty `agent_message_chunk`).
 */
export function addUpdateUsage(sum: Usage, update: unknown): Usage {
  const u = rec(rec(rec(update)._meta).usage);
  const inputTokens = num(u.inputTokens);
  const outputTokens = num(u.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return sum;
  const plus = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);
  return usageOf(plus(sum.inputTokens, inputTokens), plus(sum.outputTokens, outputTokens));
}
