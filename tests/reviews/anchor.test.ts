import { describe, expect, test } from "bun:test";
import { parseDiff, type Section } from "../../src/git/diff-lines.ts";
import { anchorAt, findLine, relocate, type Anchor } from "../../src/reviews/anchor.ts";
import type { DiffLine } from "../../src/protocol/review.ts";

/** A one-file diff of `file` whose hunk starts at new line `from` (old line `from` too). */
function diff(body: string[], opts: { file?: string; from?: number; section?: Section } = {}): DiffLine[] {
  const file = opts.file ?? "app.ts";
  const from = opts.from ?? 1;
  const olds = body.filter((l) => !l.startsWith("+")).length;
  const news = body.filter((l) => !l.startsWith("-")).length;
  const text = [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`, `@@ -${from},${olds} +${from},${news} @@`, ...body].join("\n");
  return parseDiff(`${text}\n`, opts.section ?? "uncommitted");
}

const at = (lines: DiffLine[], text: string) => lines.findIndex((l) => l.text === text);

describe("anchorAt", () => {
  test("a line of code: its file, side, number, text and up to two lines of code each side within its hunk", () => {
    const lines = diff([" a", " b", "+c", "-d", " e", " f", " g"], { from: 10 });
    expect(anchorAt(lines, at(lines, "+c"))).toEqual({ file: "app.ts", side: "new", line: 12, section: "uncommitted", code: "c", before: ["b", "a"], after: ["d", "e"] });
    // a removed line counts on the old side; its context stops at the hunk's header
    expect(anchorAt(lines, at(lines, "-d"))).toMatchObject({ side: "old", line: 12, code: "d", before: ["c", "b"], after: ["e", "f"] });
    expect(anchorAt(lines, at(lines, " a"))).toMatchObject({ side: "new", line: 10, before: [] });
  });

  test("a header, a hunk line or a note is no place for a comment", () => {
    const lines = diff(["+x"]);
    for (let i = 0; i < 4; i++) expect(anchorAt(lines, i)).toBeNull();
  });
});

describe("findLine", () => {
  test("by file, side and number; without a section the uncommitted change comes first", () => {
    const committed = diff(["+one", "+two"], { section: "committed" });
    const uncommitted = diff([" one", "+between", " two"], { section: "uncommitted" });
    const lines = [...committed, ...uncommitted];
    expect(lines[findLine(lines, { file: "app.ts", side: "new", line: 2 })!]!.text).toBe("+between");
    expect(lines[findLine(lines, { file: "app.ts", side: "new", line: 2, section: "committed" })!]!.text).toBe("+two");
    expect(findLine(lines, { file: "app.ts", side: "old", line: 2 })).toBeNull();
    expect(findLine(lines, { file: "other.ts", side: "new", line: 1 })).toBeNull();
  });
});

describe("relocate", () => {
  const before = diff([" function f() {", "+  const x = load();", "+  return x;", " }", " ", " function g() {", "+  return x;", " }"], { from: 5 });
  const anchor = (text: string, n = 0) => anchorAt(before, before.findIndex((l, i) => l.text === text && before.slice(0, i).filter((p) => p.text === text).length === n))!;

  test("in the same diff, every anchored line is where it was", () => {
    for (const t of ["+  const x = load();", " }", " function g() {"]) expect(relocate(before, anchor(t))).toEqual({ state: "current", index: at(before, t) });
  });

  test("lines added above it: found by its text and neighbours at its new number", () => {
    const now = diff([" function f() {", "+  // cache it", "+  const x = load();", "+  return x;", " }"], { from: 5 });
    const r = relocate(now, anchor("+  const x = load();"));
    expect(r.state).toBe("moved");
    expect(now[r.index!]).toMatchObject({ text: "+  const x = load();", new: 7 });
  });

  test("its text changed: changed since", () => {
    const now = diff([" function f() {", "+  const x = loadCached();", "+  return x;", " }"], { from: 5 });
    expect(relocate(now, anchor("+  const x = load();"))).toEqual({ state: "changed", index: null });
  });

  test("of two lines with the same text, the one whose neighbours it had", () => {
    // the second `return x;` (in g) stays; f's moves down by two
    const now = diff([" function f() {", "+  // a", "+  // b", "+  const x = load();", "+  return x;", " }", " ", " function g() {", "+  return x;", " }"], { from: 5 });
    const second = relocate(now, anchor("+  return x;", 1));
    expect(second.state).toBe("moved");
    expect(now[second.index!]!.new).toBe(13);
    const first = relocate(now, anchor("+  return x;", 0));
    expect(now[first.index!]!.new).toBe(9);
  });

  test("a short line whose neighbours all changed is not guessed at; a distinctive one is still found", () => {
    const now = diff([" const other = 1;", "+}", "+  const x = load();", " more"], { from: 40 });
    expect(relocate(now, anchor("+  const x = load();")).state).toBe("moved");
    const brace: Anchor = { file: "app.ts", side: "new", line: 8, section: "uncommitted", code: "}", before: ["  return x;"], after: [""] };
    expect(relocate(now, brace)).toEqual({ state: "changed", index: null });
  });

  test("a line committed since (same number, now in the committed section) has moved there", () => {
    const committed = diff([" function f() {", "+  const x = load();"], { from: 5, section: "committed" });
    const r = relocate(committed, anchor("+  const x = load();"));
    expect(r.state).toBe("moved");
    expect(committed[r.index!]).toMatchObject({ section: "committed", new: 6 });
  });

  test("a removed line is looked for among removed lines only", () => {
    const was = diff([" keep", "-gone()", " keep2"]);
    const a = anchorAt(was, at(was, "-gone()"))!;
    expect(relocate(was, a).state).toBe("current");
    // restored: the line is context now, no longer a removal the comment spoke of
    const restored = diff([" keep", " gone()", "+added", " keep2"]);
    expect(relocate(restored, a)).toEqual({ state: "changed", index: null });
  });
});
