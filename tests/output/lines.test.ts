import { describe, expect, test } from "bun:test";
import { formatLine, renderEvent, summarizeInput, wrapLines, type LineParser } from "../../src/output/lines.ts";
import { renderChunksWith } from "../../src/output/renderer.ts";
import type { OutputChunk } from "../../src/protocol/output.ts";

const chunk = (id: number, data: string, over: Partial<OutputChunk> = {}): OutputChunk => ({
  id,
  agentId: "a1",
  session: 1,
  stream: "stdout",
  data,
  createdAt: 0,
  ...over,
});

const parse: LineParser = (line) => {
  if (line.startsWith("T ")) return [{ kind: "text", text: line.slice(2) }];
  if (line.startsWith("U ")) return [{ kind: "tool_use", name: "Bash", input: JSON.stringify({ command: line.slice(2) }) }];
  if (line.startsWith("R ")) return [{ kind: "tool_result", output: line.slice(2).replace(/\|/g, "\n"), isError: false }];
  if (line.startsWith("E ")) return [{ kind: "error", message: line.slice(2) }];
  return [{ kind: "raw", line }];
};

describe("renderEvent", () => {
  test("a tool call is one compact line showing its telling field", () => {
    expect(renderEvent({ kind: "tool_use", name: "Read", input: '{"file_path":"src/a.ts","limit":5}' })).toEqual([{ text: "▸ Read(src/a.ts)", kind: "tool" }]);
  });
  test("a tool result is summarised: first line and how many more", () => {
    expect(renderEvent({ kind: "tool_result", output: "one\ntwo\nthree", isError: false })).toEqual([{ text: "  ⎿ one (+2 lines)", kind: "result" }]);
    expect(renderEvent({ kind: "tool_result", output: "nope", isError: true })[0]).toEqual({ text: "  ⎿ error: nope", kind: "error" });
  });
  test("errors are marked", () => {
    expect(renderEvent({ kind: "error", message: "rate limited\nmore" })).toEqual([{ text: "✗ rate limited", kind: "error" }]);
  });
  test("a result shows cost and tokens", () => {
    const [l] = renderEvent({ kind: "result", isError: false, costUsd: 0.25, inputTokens: 1500, outputTokens: 20 });
    expect(l).toEqual({ text: "✓ result · $0.25 · 1.5k in / 20 out", kind: "meta" });
  });
  test("a turn that ended short of the agent's own end says why (a rejected call, a stop)", () => {
    expect(renderEvent({ kind: "result", isError: false, text: "turn ended: cancelled", stopReason: "cancelled" })).toEqual([{ text: "■ turn ended: cancelled", kind: "meta" }]);
  });
  test("multi-line text becomes one line per line", () => {
    expect(renderEvent({ kind: "text", text: "a\nb" }).map((l) => l.text)).toEqual(["a", "b"]);
  });
});

describe("renderChunksWith", () => {
  const chunks = [chunk(1, "T hello\nU ls -la\nR a|b|c\n"), chunk(2, "E boom\n", { stream: "stderr" }), chunk(3, "T again\n", { session: 2 })];

  test("renders through the parser, with a heading where a new session starts", () => {
    const lines = renderChunksWith(parse, chunks, { raw: false });
    expect(lines).toEqual([
      { text: "hello", kind: "text" },
      { text: "▸ Bash(ls -la)", kind: "tool" },
      { text: "  ⎿ a (+2 lines)", kind: "result" },
      { text: "✗ boom", kind: "error" },
      { text: "── session 2 ──", kind: "meta" },
      { text: "again", kind: "text" },
    ]);
  });

  test("raw mode gives the lines as written", () => {
    const lines = renderChunksWith(parse, chunks, { raw: true }).filter((l) => l.kind === "raw");
    expect(lines.map((l) => l.text)).toEqual(["T hello", "U ls -la", "R a|b|c", "E boom", "T again"]);
  });

  test("with a width, text wraps and tool lines are cut", () => {
    const lines = renderChunksWith(parse, [chunk(1, "T one two three four\nU a very long command line here\n")], { raw: false, width: 10 });
    expect(lines.map((l) => l.text)).toEqual(["one two", "three four", "▸ Bash(a …"]);
  });

  test("troupe's own note is shown as troupe's, never parsed as the CLI's; raw is unrendered, never unsanitized", () => {
    const note = chunk(1, "… 3 MiB of older output dropped (cap 1 MiB)\n", { stream: "troupe" });
    const escapes = chunk(2, "T \x1b]52;c;cGF3bmVk\x07x\ty\x1b[2J\n");
    for (const raw of [false, true]) {
      const lines = renderChunksWith(parse, [note, escapes], { raw });
      expect(lines[0]).toEqual({ text: "troupe: … 3 MiB of older output dropped (cap 1 MiB)", kind: "meta" });
      expect(lines[1]!.text).not.toContain("\x1b");
      expect(lines[1]!.text).toEqual(raw ? "T x     y" : "x       y");
    }
  });

  test("a chunk with no trailing newline loses no line", () => {
    expect(renderChunksWith(parse, [chunk(1, "x\ny")], { raw: true }).map((l) => l.text)).toEqual(["x", "y"]);
  });
});

test("wrapLines keeps each row's kind", () => {
  expect(wrapLines([{ text: "aaaa bbbb", kind: "error" }], 4)).toEqual([
    { text: "aaaa", kind: "error" },
    { text: "bbbb", kind: "error" },
  ]);
});

test("summarizeInput falls back to compact JSON, then to the text", () => {
  expect(summarizeInput('{"x":1}')).toBe('({"x":1})');
  expect(summarizeInput("not json")).toBe("(not json)");
  expect(summarizeInput("{}")).toBe("");
});

test("formatLine sanitises the line's text before it adds its own colour: the only escapes are troupe's", () => {
  expect(formatLine({ text: "a\x1b]0;PWNED\x07b\x9b2J", kind: "error" }, { color: true })).toBe("\x1b[31mab\x1b[39m");
  expect(formatLine({ text: "a\x1b[2Jb", kind: "text" }, { color: false })).toBe("ab");
});

test("a tool's name and a session's id and model are the CLI's words: sanitised as its text is", () => {
  expect(renderEvent({ kind: "tool_use", name: "Bash\x1b]0;PWNED\x07", input: "{}" })).toEqual([{ text: "▸ Bash", kind: "tool" }]);
  expect(renderEvent({ kind: "session", sessionId: "s\x1b[2J1", model: "m\x9b2J" })).toEqual([{ text: "session s1 · m", kind: "meta" }]);
});

test("formatLine colours by kind only when asked", () => {
  expect(formatLine({ text: "e", kind: "error" }, { color: false })).toBe("e");
  expect(formatLine({ text: "e", kind: "error" }, { color: true })).toBe("\x1b[31me\x1b[39m");
  expect(formatLine({ text: "t", kind: "text" }, { color: true })).toBe("t");
});
