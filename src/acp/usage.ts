import type { PromptResponse } from "@agentclientprotocol/sdk";

export type Usage = { inputTokens?: number; outputTokens?: number; costUsd?: number };

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function usageOf(inputTokens: number | undefined, outputTokens: number | undefined): Usage {
  return { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) };
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
