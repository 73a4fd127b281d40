import { describe, expect, test } from "bun:test";
import { diagnose } from "../../../src/agents/lifecycle/diagnose.ts";
import { classifyEnd } from "../../../src/agents/lifecycle/outcome.ts";
import { getProvider } from "../../../providers/index.ts";
import type { OutputChunk, Stream } from "../../../src/protocol/output.ts";
import { fixtureChunks } from "../../providers/fixture-helpers.ts";

// Every recorded fixture's class is in tests/providers/conformance.test.ts; these are the rules
// beyond the class: structured signals first, the reset time, the end without a signal.
const claude = getProvider("claude")!;
const chunk = (stream: Stream, data: string, id = 1): OutputChunk => ({ id, agentId: "a", session: 1, stream, data, createdAt: 0 });

describe("structured signals first", () => {
  test("a spent subscription quota carries its exact reset time from the rate_limit_event", () => {
    const chunks = fixtureChunks("claude", "usage-limit");
    const d = diagnose(claude, chunks);
    expect(d?.failure).toBe("usage_limit");
    // the recorded rate_limit_event's resetsAt (epoch seconds), to the millisecond; the text rounds it to a minute ("resets 1:38am")
    const recorded = Number(chunks.map((c) => c.data).join("").match(/"resetsAt":(\d+)/)?.[1]);
    expect(recorded).toBeGreaterThan(1_700_000_000);
    expect(d?.resetsAt).toBe(recorded * 1000);
    expect(d?.evidence).toMatch(/resets \d{1,2}:\d\d[ap]m/);
  });

  test("the per-minute 429 is rate_limit, with no reset time", () => {
    const d = diagnose(claude, fixtureChunks("claude", "rate-limit-429"));
    expect(d).toEqual({ failure: "rate_limit", evidence: "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit" });
  });

  test("the HTTP status outranks the text: a 529 is overloaded whatever it says", () => {
    const line = JSON.stringify({ type: "result", is_error: true, api_error_status: 529, result: "API Error: something new" });
    expect(diagnose(claude, [chunk("stdout", `${line}\n`)])?.failure).toBe("overloaded");
  });

  test("claude's own budget stop is budget", () => {
    const line = JSON.stringify({ type: "result", subtype: "error_max_budget_usd", is_error: true, total_cost_usd: 1.2 });
    expect(diagnose(claude, [chunk("stdout", `${line}\n`)])?.failure).toBe("budget");
  });
});

describe("a run's end without a valid signal", () => {
  const missing = { kind: "missing" } as const;
  test("the provider's diagnosis explains it first", () => {
    expect(classifyEnd(missing, 1, { failure: "auth", evidence: "Not logged in" })?.failure).toBe("auth");
  });
  test("killed by a signal troupe did not send, or gone without a status: interrupted", () => {
    expect(classifyEnd(missing, 137, null)?.failure).toBe("interrupted");
    expect(classifyEnd(missing, null, null)?.failure).toBe("interrupted");
  });
  test("an ordinary exit: missing_signal", () => {
    expect(classifyEnd(missing, 0, null)).toEqual({ failure: "missing_signal", evidence: "exited with code 0 without a signal" });
  });
  test("a signal that does not parse: bad_output, with the reason", () => {
    expect(classifyEnd({ kind: "malformed", reason: "not JSON" }, 0, null)).toEqual({ failure: "bad_output", evidence: "the signal file: not JSON" });
  });
  test("an error signal says its class; without one it is the agent's verdict (unknown)", () => {
    expect(classifyEnd({ kind: "ok", signal: { status: "error", error: "offline", class: "network" } }, 1, null)?.failure).toBe("network");
    expect(classifyEnd({ kind: "ok", signal: { status: "error", error: "cannot" } }, 1, null)?.failure).toBe("unknown");
    expect(classifyEnd({ kind: "ok", signal: { status: "done" } }, 0, null)).toBeNull();
  });
  test("the wrapper's signal for a failed worktree.setup is setup", () => {
    expect(classifyEnd({ kind: "ok", signal: { status: "error", error: "setup failed: worktree.setup exited 1" } }, 1, null)?.failure).toBe("setup");
  });
});
