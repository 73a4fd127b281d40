import { describe, expect, test } from "bun:test";
import { opencode } from "../../providers/opencode.ts";
import { OutputEventSchema } from "../../src/protocol/output.ts";
import { baseInput, failureOf } from "./fixture-helpers.ts";

// opencode is not installed here: these lines follow `opencode run --format json` as its source
// (packages/opencode/src/cli/cmd/run.ts) and docs describe it, not a recording.
const SES = "ses_494719016ffe85dkDMj0FPRbHK";
const DOCUMENTED = [
  { type: "step_start", timestamp: 1767036059338, sessionID: SES, part: { id: "prt_1", sessionID: SES, messageID: "msg_1", type: "step-start", snapshot: "4b825dc" } },
  { type: "text", timestamp: 1767036060000, sessionID: SES, part: { id: "prt_2", type: "text", text: "Let me look.", time: { start: 1, end: 2 } } },
  {
    type: "tool_use",
    timestamp: 1767036061000,
    sessionID: SES,
    part: { id: "prt_3", type: "tool", tool: "bash", callID: "call_1", state: { status: "completed", input: { command: "ls" }, output: "README.md\n", title: "ls" } },
  },
  {
    type: "tool_use",
    timestamp: 1767036061500,
    sessionID: SES,
    part: { id: "prt_4", type: "tool", tool: "read", callID: "call_2", state: { status: "error", input: { filePath: "nope" }, error: "File not found: nope" } },
  },
  { type: "step_finish", timestamp: 1767036062000, sessionID: SES, part: { type: "step-finish", reason: "tool-calls", cost: 0.001, tokens: { input: 10, output: 5 } } },
  { type: "step_start", timestamp: 1767036062100, sessionID: SES, part: { type: "step-start" } },
  { type: "text", timestamp: 1767036063000, sessionID: SES, part: { type: "text", text: "Only README.md." } },
  { type: "step_finish", timestamp: 1767036064000, sessionID: SES, part: { type: "step-finish", reason: "stop", cost: 0.0042, tokens: { input: 1200, output: 40, reasoning: 0, cache: { read: 0, write: 0 } } } },
  { type: "error", timestamp: 1767036065000, sessionID: SES, error: { name: "ProviderAuthError", data: { providerID: "anthropic", message: "invalid x-api-key" } } },
].map((o) => JSON.stringify(o));

describe("opencode parseLine", () => {
  const events = DOCUMENTED.flatMap((l) => opencode.parseLine(l, "stdout"));

  test("every documented line gives valid events", () => {
    for (const e of events) expect(OutputEventSchema.safeParse(e).success).toBe(true);
  });

  test("session, text, tools with results, one final result with cost, error", () => {
    expect(events.filter((e) => e.kind === "session")).toEqual([
      { kind: "session", sessionId: SES },
      { kind: "session", sessionId: SES },
    ]);
    expect(events.filter((e) => e.kind === "text").map((e) => (e.kind === "text" ? e.text : ""))).toEqual(["Let me look.", "Only README.md."]);
    expect(events.filter((e) => e.kind === "tool_use" || e.kind === "tool_result")).toEqual([
      { kind: "tool_use", id: "call_1", name: "bash", input: '{"command":"ls"}' },
      { kind: "tool_result", id: "call_1", output: "README.md\n", isError: false },
      { kind: "tool_use", id: "call_2", name: "read", input: '{"filePath":"nope"}' },
      { kind: "tool_result", id: "call_2", output: "File not found: nope", isError: true },
    ]);
    expect(events.filter((e) => e.kind === "result")).toEqual([
      { kind: "result", isError: false, costUsd: 0.0042, inputTokens: 1200, outputTokens: 40 },
    ]);
    expect(events.filter((e) => e.kind === "error")).toEqual([{ kind: "error", message: "invalid x-api-key" }]);
  });

  test("log lines, unknown events and stderr lines become raw", () => {
    for (const line of ["INFO  service=default version=1.0", '{"type":"future"}', '{"type":"tool_use"}']) {
      expect(opencode.parseLine(line, "stdout")).toEqual([{ kind: "raw", line }]);
    }
    expect(opencode.parseLine(DOCUMENTED[0]!, "stderr")).toEqual([{ kind: "raw", line: DOCUMENTED[0]! }]);
  });

  test("error patterns, as diagnose() applies them to stderr", () => {
    expect(failureOf(opencode, "ProviderAuthError: invalid x-api-key")).toBe("auth");
    expect(failureOf(opencode, "AI_APICallError: 429 rate limit exceeded")).toBe("rate_limit");
    expect(failureOf(opencode, "AI_APICallError: insufficient_quota")).toBe("usage_limit");
    expect(failureOf(opencode, "Unable to connect. Is the computer able to access the url?")).toBe("network");
    expect(failureOf(opencode, "Only README.md.")).toBeUndefined();
  });
});

describe("opencode commands", () => {
  test("spawn: run --format json, prompt on stdin, permissions through the config variable", () => {
    const skip = opencode.buildSpawn({ ...baseInput, permissions: "skip", model: "anthropic/claude-sonnet-4" });
    expect(skip.argv).toEqual(["opencode", "run", "--format", "json", "--model", "anthropic/claude-sonnet-4"]);
    expect(skip.stdin).toBe("fix the bug");
    expect(JSON.parse(skip.env!.OPENCODE_CONFIG_CONTENT!)).toEqual({ permission: "allow" });

    const edits = opencode.buildSpawn({ ...baseInput, permissions: "edits" });
    expect(JSON.parse(edits.env!.OPENCODE_CONFIG_CONTENT!).permission).toMatchObject({ edit: "allow", bash: "ask" });

    const plan = opencode.buildSpawn({ ...baseInput, permissions: "plan" });
    expect(plan.argv).toEqual(["opencode", "run", "--format", "json", "--agent", "plan"]);
    expect(plan.env).toBeUndefined();
  });

  test("resume: --session ID", () => {
    const cmd = opencode.buildResume!({ ...baseInput, permissions: "skip", sessionId: SES });
    expect(cmd.argv).toEqual(["opencode", "run", "--format", "json", "--session", SES]);
    expect(cmd.stdin).toBe("fix the bug");
  });
});
