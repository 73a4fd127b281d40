import { describe, expect, test } from "bun:test";
import { claude } from "../../../providers/claude/provider.ts";
import { summarizeToolInput } from "../../../providers/claude/parse.ts";
import type { Stream } from "../../../src/protocol/output.ts";
import { failureOf, fixtureCases, loadFixture, ofKind as of } from "../fixture-helpers.ts";

const CASES = fixtureCases("claude");
const load = (name: string) => loadFixture(claude, name);

test("the fixtures are there, and only lines claude knows give no event", () => {
  expect(CASES).toContain("success");
  expect(CASES.length).toBeGreaterThanOrEqual(10);
  for (const name of CASES) {
    for (const line of load(name).stdout) {
      // e.g. a thinking-only assistant message, or a rate_limit_event that is not a rejection
      if (claude.parseLine(line, "stdout").length === 0) expect(JSON.parse(line).type).toBeOneOf(["assistant", "user", "rate_limit_event"]);
    }
  }
});

describe("the success fixture", () => {
  const { events } = load("success");

  test("yields the session id and model first", () => {
    expect(events[0]).toEqual({ kind: "session", sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/), model: expect.stringContaining("claude") });
    const resumed = load("resume");
    expect(resumed.meta.argv).toContain((events[0] as { sessionId: string }).sessionId);
  });

  test("yields text and tool calls with one-line summaries", () => {
    expect(of(events, "text").map((e) => e.text)).toEqual(["I'll create the file and commit it.", "finished"]);
    const tools = of(events, "tool_use");
    expect(tools.map((t) => [t.name, t.input])).toEqual([
      ["Bash", "echo hi > a.txt && git add a.txt && git commit -m 'add a.txt'"],
      ["Write", expect.stringMatching(/\/repo\/notes\.md$/)],
      ["Bash", "exit 3"],
      ["Bash", "troupe signal done --result ok"],
    ]);
    expect(tools.every((t) => t.id?.startsWith("toolu_"))).toBe(true);
  });

  test("yields tool results paired by id, the failing one marked", () => {
    const results = of(events, "tool_result");
    expect(results.map((r) => r.id)).toEqual(of(events, "tool_use").map((t) => t.id));
    expect(results[0]!.output).toContain("add a.txt");
    expect(results.map((r) => r.isError)).toEqual([false, false, true, false]);
    expect(results[2]!.output).toBe("Exit code 3");
  });

  test("ends with a result carrying cost and tokens", () => {
    const result = events.at(-1);
    expect(result).toEqual({ kind: "result", isError: false, text: "finished", costUsd: expect.any(Number), inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect((result as { costUsd: number }).costUsd).toBeGreaterThan(0);
  });
});

test("the resume fixture keeps the session id and acts on the answer", () => {
  const { events } = load("resume");
  const success = load("success").events[0] as { sessionId: string };
  expect(events[0]).toMatchObject({ kind: "session", sessionId: success.sessionId });
  expect(of(events, "tool_use")[0]?.input).toContain("echo blue > answer.txt");
  expect(events.at(-1)).toMatchObject({ kind: "result", isError: false });
});

test("the usage-window fixture: both windows of the rate-limit event, each with its use and reset, and no error", () => {
  const { events, meta } = load("usage-window");
  expect(meta.exitCode).toBe(0);
  const usage = of(events, "usage");
  expect(usage).toHaveLength(1);
  expect(usage[0]!.windows.map((w) => [w.window, w.utilization])).toEqual([["five_hour", 0.91], ["seven_day", 0.4]]);
  // epoch ms, an hour after the recording (5-hour window) and three days past that (7-day)
  const [five, seven] = usage[0]!.windows;
  expect(seven!.resetsAt - five!.resetsAt).toBe(3 * 86_400_000);
  expect(of(events, "error")).toEqual([]);
});

// Each case's failure class (from diagnose()) is checked by the conformance suite.
describe("error fixtures", () => {
  const expected: Record<string, RegExp> = {
    // 2.1.197 said "Unable to connect to API"; 2.1.332 "Connection refused — a firewall or proxy …"
    "no-server": /Unable to connect to API|Connection refused/,
    "auth-401": /Invalid API key/,
    "not-logged-in": /Not logged in/,
    "rate-limit-429": /Request rejected \(429\)/,
    // "session limit" until 2.1.197, "5-hour limit" since
    "usage-limit": /hit your (session|5-hour) limit/,
    "usage-limit-weekly": /hit your weekly limit/,
    "credit-low": /Credit balance is too low/,
    "overloaded-529": /Overloaded/,
    timeout: /Request timed out/,
    "resume-missing": /No conversation found/,
    "root-no-sandbox": /cannot be used with root/,
  };

  for (const [name, message] of Object.entries(expected)) {
    test.skipIf(!CASES.includes(name))(`${name}: error events and an error result`, () => {
      const { events, meta } = load(name);
      expect(meta.exitCode).toBe(1);
      expect(of(events, "error").some((e) => message.test(e.message))).toBe(true);
      const result = of(events, "result");
      // Refused before start-up: nothing on stdout, only stderr.
      if (name !== "root-no-sandbox") expect(result.at(-1)).toMatchObject({ isError: true, costUsd: 0 });
    });
  }

  test("subscription usage limits also come as a rate_limit_event", () => {
    const errors = of(load("usage-limit").events, "error").map((e) => e.message);
    expect(errors).toContainEqual(expect.stringMatching(/^usage limit reached \(five_hour\), resets \d{4}-/));
  });
});

describe("parseLine on lines not in the fixtures", () => {
  const parse = (line: string, stream: Stream = "stdout") => claude.parseLine(line, stream);

  test("unknown events are kept raw", () => {
    for (const line of ['{"type":"stream_event","event":{}}', '{"type":"system","subtype":"api_retry","attempt":1}', '{"no":"type"}']) {
      expect(parse(line)).toEqual([{ kind: "raw", line }]);
    }
  });

  test("odd shapes of known lines do not throw", () => {
    expect(parse('{"type":"assistant","message":null}')).toEqual([]);
    expect(parse('{"type":"assistant","message":{"content":[{"type":"tool_use"}]}}')).toEqual([{ kind: "tool_use", name: "tool", input: "" }]);
    expect(parse('{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"a"},{"type":"image"}]}]}}')).toEqual([
      { kind: "tool_result", output: "a\n[image]", isError: false },
    ]);
    expect(parse('{"type":"result","is_error":"yes"}')).toEqual([{ kind: "result", isError: false }]);
    expect(parse('{"type":"system","subtype":"init"}')).toEqual([{ kind: "raw", line: '{"type":"system","subtype":"init"}' }]);
  });

  test("long tool output is cut", () => {
    const line = JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", content: "x".repeat(5000) }] } });
    const [event] = of(parse(line), "tool_result");
    expect(event!.output.length).toBeLessThan(2100);
    expect(event!.output).toEndWith("(3000 more chars)");
  });

  test("stderr: errors by pattern, the rest raw", () => {
    expect(parse("Error: something odd", "stderr")).toEqual([{ kind: "raw", line: "Error: something odd" }]);
    expect(parse("API Error: Unable to connect to API (ConnectionRefused)", "stderr")).toEqual([
      { kind: "error", message: "API Error: Unable to connect to API (ConnectionRefused)" },
    ]);
  });

  test("a transient 429 that is not a usage limit is rate_limit, not usage_limit", () => {
    const text = "API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited";
    expect(failureOf(claude, text)).toBe("rate_limit");
  });
});

describe("tool input summaries", () => {
  test("pick the field a person wants", () => {
    expect(summarizeToolInput("Bash", { command: "ls\n  -la", description: "list" })).toBe("ls ⏎ -la");
    expect(summarizeToolInput("Edit", { file_path: "/a/b.ts", old_string: "x", new_string: "y" })).toBe("/a/b.ts");
    expect(summarizeToolInput("Grep", { pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(summarizeToolInput("WebFetch", { url: "https://x.test", prompt: "p" })).toBe("https://x.test");
    expect(summarizeToolInput("TodoWrite", { todos: [{}, {}] })).toBe("2 todos");
    expect(summarizeToolInput("mcp__troupe__ask", { to: "bob", n: 1 })).toBe('{"to":"bob","n":1}');
    expect(summarizeToolInput("Bash", { command: "y".repeat(500) })).toHaveLength(200);
  });
});
