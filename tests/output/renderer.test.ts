import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LineParser, RenderedLine } from "../../src/output/lines.ts";
import { parserFor } from "../../src/output/render.ts";
import { OutputRenderer, arraySink, renderChunksWith, type LineSink } from "../../src/output/renderer.ts";
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

// "D x" is a streamed delta, "T x" a whole text, "U x" a tool call, "N" a line that renders nothing.
const parse: LineParser = (line) => {
  if (line.startsWith("D ")) return [{ kind: "text", text: line.slice(2).replace(/\\n/g, "\n"), delta: true }];
  if (line.startsWith("T ")) return [{ kind: "text", text: line.slice(2) }];
  if (line.startsWith("U ")) return [{ kind: "tool_use", name: "Bash", input: line.slice(2) }];
  if (line === "N") return [];
  return [{ kind: "raw", line }];
};

const texts = (lines: RenderedLine[]) => lines.map((l) => l.text);

/** How the dashboard renders: chunk by chunk into a store of lines it keeps, one chunk per event. */
function incrementally(p: LineParser, chunks: OutputChunk[]): RenderedLine[] {
  const lines: RenderedLine[] = [];
  const sink: LineSink = arraySink(lines);
  const renderer = new OutputRenderer(p);
  for (const c of chunks) renderer.chunk(c, sink);
  return lines;
}

describe("text deltas join into one paragraph", () => {
  test("consecutive deltas are one line, joined as they are", () => {
    const lines = renderChunksWith(parse, [chunk(1, "D The \nD folder \nD holds it.\n")], { raw: false });
    expect(lines).toEqual([{ text: "The folder holds it.", kind: "text" }]);
  });

  test("a delta holding a newline starts a new line of the same paragraph", () => {
    expect(texts(renderChunksWith(parse, [chunk(1, "D one \nD two\\nthree \nD four\n")], { raw: false }))).toEqual(["one two", "three four"]);
  });

  test("anything shown between deltas ends the paragraph; lines that show nothing do not", () => {
    const lines = renderChunksWith(parse, [chunk(1, "D a \nN\nD b\nU ls\nD c \nD d\nT whole\nT line\nD e\n")], { raw: false });
    expect(texts(lines)).toEqual(["a b", "▸ Bash(ls)", "c d", "whole", "line", "e"]);
  });

  test("a new session ends the paragraph", () => {
    const lines = renderChunksWith(parse, [chunk(1, "D a\n"), chunk(2, "D b\n", { session: 2 })], { raw: false });
    expect(texts(lines)).toEqual(["a", "── session 2 ──", "b"]);
  });

  test("raw mode keeps one line per delta, as written", () => {
    expect(texts(renderChunksWith(parse, [chunk(1, "D a\nD b\n")], { raw: true }))).toEqual(["D a", "D b"]);
  });

  test("wrapping applies to the joined paragraph", () => {
    expect(texts(renderChunksWith(parse, [chunk(1, "D one two \nD three four\n")], { raw: false, width: 10 }))).toEqual(["one two", "three four"]);
  });

  test("chunk boundaries between deltas still join: every split renders as the whole", () => {
    const data = ["D The ", "D folder ", "U ls", "D holds\\nREADME.md ", "N", "D and ", "D nothing.", "T done"].map((l) => `${l}\n`);
    const whole = renderChunksWith(parse, [chunk(1, data.join(""))], { raw: false });
    for (let mask = 0; mask < 1 << (data.length - 1); mask++) {
      const chunks: OutputChunk[] = [];
      let current = "";
      data.forEach((line, i) => {
        current += line;
        if (i === data.length - 1 || mask & (1 << i)) {
          chunks.push(chunk(chunks.length + 1, current));
          current = "";
        }
      });
      expect(incrementally(parse, chunks)).toEqual(whole);
    }
  });
});

describe("the recorded Gemini CLI runs", () => {
  const gemini = parserFor("gemini");
  const fixture = (name: string) => readFileSync(join(import.meta.dir, "..", "fixtures", "gemini", `${name}.stdout.jsonl`), "utf8");

  test("the streamed answer is one line, even when each word arrives in its own chunk", () => {
    const data = fixture("success");
    const whole = renderChunksWith(gemini, [chunk(1, data)], { raw: false });
    const answer = "The folder holds README.md and nothing else. Done.";
    expect(whole.filter((l) => l.kind === "text")).toEqual([{ text: answer, kind: "text" }]);
    const perLine = data.split("\n").filter((l) => l !== "").map((l, i) => chunk(i + 1, `${l}\n`));
    expect(incrementally(gemini, perLine)).toEqual(whole);
  });

  test("the resumed run's answer too", () => {
    const lines = renderChunksWith(gemini, [chunk(1, fixture("resume"))], { raw: false });
    expect(lines.filter((l) => l.kind === "text").map((l) => l.text)).toEqual(["Still just README.md. Done."]);
  });
});
