import { describe, expect, test } from "bun:test";
import type { PromptResponse } from "@agentclientprotocol/sdk";
import { addUpdateUsage, sessionCostOf, turnCost, turnUsage, type Usage } from "../../src/acp/usage.ts";

/** An update as Qwen Code 0.24.4 reports one model call's tokens: an empty message chunk with `_meta.usage`. */
const qwenUsage = (inputTokens: number, outputTokens: number) => ({
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text: "" },
  _meta: { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, durationMs: 12 },
});

describe("a turn's usage", () => {
  test("the prompt's answer says it: ACP's usage, or Gemini CLI's quota", () => {
    // ACP's `usage` is in the protocol's unstable part: not in the stable type
    expect(turnUsage({ stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } } as PromptResponse)).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(turnUsage({ stopReason: "end_turn", _meta: { quota: { token_count: { input_tokens: 900, output_tokens: 20 } } } }, { inputTokens: 1 })).toEqual({ inputTokens: 900, outputTokens: 20 });
  });

  test("an answer with its stop reason alone: the sum of what the turn's updates reported", () => {
    let sum: Usage = {};
    for (const u of [qwenUsage(300, 10), { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }, qwenUsage(350, 4), { sessionUpdate: "usage_update", used: 350, size: 131072 }]) sum = addUpdateUsage(sum, u);
    expect(sum).toEqual({ inputTokens: 650, outputTokens: 14 });
    expect(turnUsage({ stopReason: "end_turn" }, sum)).toEqual({ inputTokens: 650, outputTokens: 14 });
    expect(turnUsage({ stopReason: "end_turn" })).toEqual({});
  });

  test("what is no count is not counted", () => {
    expect(addUpdateUsage({ inputTokens: 5 }, { _meta: { usage: { inputTokens: "many", outputTokens: null } } })).toEqual({ inputTokens: 5 });
    expect(addUpdateUsage({}, null)).toEqual({});
    expect(addUpdateUsage({}, { _meta: { usage: { outputTokens: 3 } } })).toEqual({ outputTokens: 3 });
  });

  test("a usage update's cost is the whole session's (opencode 1.18.33): a turn's is what it added, unknown when the cost before it is", () => {
    const update = (amount: unknown, currency = "USD") => ({ sessionUpdate: "usage_update", used: 1059, size: 200000, cost: { amount, currency } });
    expect(sessionCostOf(update(0.0033))).toBe(0.0033);
    expect(sessionCostOf(update(0.0033, "EUR"))).toBeUndefined();
    expect(sessionCostOf(update("a lot"))).toBeUndefined();
    expect(sessionCostOf({ sessionUpdate: "usage_update", used: 1, size: 2 })).toBeUndefined();
    expect(sessionCostOf(qwenUsage(1, 1))).toBeUndefined();
    expect(turnCost(0, 0.0033)).toBe(0.0033);
    expect(turnCost(0.0033, 0.005)).toBeCloseTo(0.0017, 10);
    expect(turnCost(undefined, 0.005)).toBeUndefined();
    expect(turnCost(0.0033, undefined)).toBeUndefined();
  });
});
