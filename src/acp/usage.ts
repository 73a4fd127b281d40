import type { PromptResponse } from "@agentclientprotocol/sdk";

type Usage = { inputTokens?: number; outputTokens?: number; costUsd?: number };

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * What a turn's answer says of its usage, where the agent reports it: ACP's `usage` (in the
 * protocol's unstable part: `inputTokens`, `outputTokens`), or Gemini CLI's `_meta.quota.token_count`.
 * No agent seen reports a cost in US dollars.
 */
export function turnUsage(r: PromptResponse): Usage {
  const usage = rec((r as Record<string, unknown>).usage);
  const quota = rec(rec(rec(r._meta).quota).token_count);
  const inputTokens = num(usage.inputTokens) ?? num(quota.input_tokens);
  const outputTokens = num(usage.outputTokens) ?? num(quota.output_tokens);
  return { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) };
}
