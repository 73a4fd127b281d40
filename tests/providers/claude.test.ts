import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { claude, claudeErrorPatterns, claudeExtraEnv, summarizeToolInput } from "../../providers/claude.ts";
import type { CommandInput, FailureClass } from "../../providers/types.ts";
import { OutputEventSchema, type OutputEvent, type Stream } from "../../src/protocol/output.ts";

const DIR = join(import.meta.dir, "..", "fixtures", "claude");
const CASES = readdirSync(DIR)
  .filter((f) => f.endsWith(".meta.json"))
  .map((f) => f.replace(".meta.json", ""))
  .sort();

interface Fixture {
  events: OutputEvent[];
  meta: { exitCode: number; argv: string[] };
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

function load(name: string): Fixture {
  const read = (ext: string) => readFileSync(join(DIR, `${name}.${ext}`), "utf8");
  const parse = (text: string, stream: Stream) => lines(text).flatMap((l) => claude.parseLine(l, stream));
  return { events: [...parse(read("stdout.jsonl"), "stdout"), ...parse(read("stderr.txt"), "stderr")], meta: JSON.parse(read("meta.json")) };
}

/** What the lifecycle will do: the first pattern matching an error message or an error result. */
function classify(events: OutputEvent[]): FailureClass | undefined {
  const texts = events.flatMap((e) => (e.kind === "error" ? [e.message] : e.kind === "result" && e.isError && e.text ? [e.text] : []));
  for (const { failure, pattern } of claudeErrorPatterns) if (texts.some((t) => pattern.test(t))) return failure;
  return undefined;
}

const of = <K extends OutputEvent["kind"]>(events: OutputEvent[], kind: K) => events.filter((e): e is Extract<OutputEvent, { kind: K }> => e.kind === kind);

describe("parseLine over every recorded fixture", () => {
  test("the fixtures are there", () => {
    expect(CASES).toContain("success");
    expect(CASES.length).toBeGreaterThanOrEqual(10);
  });

  for (const name of CASES) {
    test(`${name}: every line parses to valid events, none dropped`, () => {
      for (const [file, stream] of [["stdout.jsonl", "stdout"], ["stderr.txt", "stderr"]] as const) {
        for (const line of lines(readFileSync(join(DIR, `${name}.${file}`), "utf8"))) {
          const events = claude.parseLine(line, stream);
          for (const e of events) expect(OutputEventSchema.safeParse(e).success).toBe(true);
          // Only lines the parser knows may yield nothing (e.g. an allowed rate_limit_event).
          if (events.length === 0) expect(JSON.parse(line).type).toBeOneOf(["assistant", "user", "rate_limit_event"]);
        }
      }
    });
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
    expect(classify(events)).toBeUndefined();
  });
});

test("the resume fixture keeps the session id and acts on the answer", () => {
  const { events } = load("resume");
  const success = load("success").events[0] as { sessionId: string };
  expect(events[0]).toMatchObject({ kind: "session", sessionId: success.sessionId });
  expect(of(events, "tool_use")[0]?.input).toContain("echo blue > answer.txt");
  expect(events.at(-1)).toMatchObject({ kind: "result", isError: false });
});

describe("error fixtures", () => {
  const expected: Record<string, { failure: FailureClass; message: RegExp }> = {
    "no-server": { failure: "network", message: /Unable to connect to API/ },
    "auth-401": { failure: "auth", message: /Invalid API key/ },
    "not-logged-in": { failure: "auth", message: /Not logged in/ },
    "rate-limit-429": { failure: "usage_limit", message: /Request rejected \(429\)/ },
    "usage-limit": { failure: "usage_limit", message: /hit your session limit/ },
    "usage-limit-weekly": { failure: "usage_limit", message: /hit your weekly limit/ },
    "credit-low": { failure: "usage_limit", message: /Credit balance is too low/ },
    "overloaded-529": { failure: "network", message: /Overloaded/ },
    timeout: { failure: "timeout", message: /Request timed out/ },
    "resume-missing": { failure: "crash", message: /No conversation found/ },
    "root-no-sandbox": { failure: "crash", message: /cannot be used with root/ },
  };

  for (const [name, want] of Object.entries(expected)) {
    test.skipIf(!CASES.includes(name))(`${name}: error events, an error result and class ${want.failure}`, () => {
      const { events, meta } = load(name);
      expect(meta.exitCode).toBe(1);
      expect(of(events, "error").some((e) => want.message.test(e.message))).toBe(true);
      const result = of(events, "result");
      // Refused before start-up: nothing on stdout, only stderr.
      if (name !== "root-no-sandbox") expect(result.at(-1)).toMatchObject({ isError: true, costUsd: 0 });
      expect(classify(events)).toBe(want.failure);
    });
  }

  test("subscription usage limits also come as a rate_limit_event", () => {
    const errors = of(load("usage-limit").events, "error").map((e) => e.message);
    expect(errors).toContainEqual(expect.stringMatching(/^usage limit reached \(five_hour\), resets \d{4}-/));
  });
});

describe("parseLine on lines not in the fixtures", () => {
  const parse = (line: string, stream: Stream = "stdout") => claude.parseLine(line, stream);

  test("malformed, non-object and unknown lines are kept raw", () => {
    for (const line of ["", "not json", "{\"type\":", "[1,2]", "42", "null", '{"type":"stream_event","event":{}}', '{"type":"system","subtype":"api_retry","attempt":1}', '{"no":"type"}']) {
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

  test("a transient 429 that is not a usage limit is network, not usage_limit", () => {
    const text = "API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited";
    expect(claudeErrorPatterns.find((p) => p.pattern.test(text))?.failure).toBe("network");
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

describe("commands", () => {
  const base: CommandInput = { prompt: "do it", cwd: "/w", permissions: "skip", env: {} };

  test("spawn: print mode, stream-json, prompt after --", () => {
    expect(claude.buildSpawn(base).argv).toEqual(["claude", "-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--", "do it"]);
  });

  test("model, permission modes and allowed tools", () => {
    const argv = claude.buildSpawn({ ...base, model: "sonnet", permissions: "edits", allowedTools: ["Bash(git log:*)", "Edit"], prompt: "-x" }).argv;
    expect(argv).toEqual(["claude", "-p", "--output-format", "stream-json", "--verbose", "--model", "sonnet", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(git log:*)", "Edit", "--", "-x"]);
    expect(claude.buildSpawn({ ...base, permissions: "plan" }).argv).toContainValues(["--permission-mode", "plan"]);
    expect(claude.buildSpawn({ ...base, permissions: "plan" }).argv).not.toContain("--dangerously-skip-permissions");
  });

  test("resume adds --resume with the session id", () => {
    const argv = claude.buildResume!({ ...base, sessionId: "abc-123", prompt: "answers" }).argv;
    expect(argv.slice(-4)).toEqual(["--resume", "abc-123", "--", "answers"]);
  });

  test("IS_SANDBOX only for skip as root, unless already set", () => {
    expect(claudeExtraEnv("skip", 0, {})).toEqual({ IS_SANDBOX: "1" });
    expect(claudeExtraEnv("skip", 0, { IS_SANDBOX: "0" })).toBeUndefined();
    expect(claudeExtraEnv("skip", 1000, {})).toBeUndefined();
    expect(claudeExtraEnv("edits", 0, {})).toBeUndefined();
    expect(claudeExtraEnv("skip", undefined, {})).toBeUndefined();
    const env = claude.buildSpawn(base).env;
    expect(env).toEqual(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : undefined);
  });

  test("provider facts", () => {
    expect(claude).toMatchObject({ name: "claude", binary: "claude", accountEnv: "CLAUDE_CONFIG_DIR", versionArgs: ["--version"] });
  });
});
