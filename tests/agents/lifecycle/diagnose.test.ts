import { describe, expect, test } from "bun:test";
import { diagnose, describeFailure } from "../../../src/agents/lifecycle/diagnose.ts";
import { getProvider } from "../../../providers/index.ts";
import type { OutputChunk, Stream } from "../../../src/protocol/output.ts";

// Each recorded fixture's class is checked for every provider by tests/providers/conformance.test.ts;
// these are diagnose()'s own rules.
const claude = getProvider("claude")!;
const chunk = (stream: Stream, data: string, id = 1): OutputChunk => ({ id, agentId: "a", session: 1, stream, data, createdAt: 0 });

describe("diagnose", () => {
  test("the last evidence wins: a run may recover from earlier errors", () => {
    const d = diagnose(claude, [chunk("stderr", "Request timed out\n", 1), chunk("stderr", "Not logged in · Please run /login\n", 2)]);
    expect(d).toEqual({ failure: "auth", evidence: "Not logged in · Please run /login" });
  });

  test("evidence is error events, failed results and stderr, not the assistant's text", () => {
    const text = JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "the Request timed out earlier" }] } });
    expect(diagnose(claude, [chunk("stdout", `${text}\n`)])).toBeNull();
    const result = JSON.stringify({ type: "result", is_error: true, result: "Credit balance is too low" });
    expect(diagnose(claude, [chunk("stdout", `${result}\n`)])?.failure).toBe("usage_limit");
  });

  test("evidence is one line, cut to 200 characters", () => {
    const d = diagnose(claude, [chunk("stderr", `Request   timed out ${"x".repeat(300)}\n`)]);
    expect(d?.evidence).toHaveLength(200);
    expect(d?.evidence).toStartWith("Request timed out x");
    expect(describeFailure(d!)).toStartWith("timed out (timeout): Request timed out");
  });

  test("nothing known: null", () => {
    expect(diagnose(claude, [chunk("stderr", "something odd\n")])).toBeNull();
    expect(diagnose(getProvider("generic")!, [chunk("stderr", "Request timed out\n")])).toBeNull();
  });
});
