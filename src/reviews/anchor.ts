import type { CommentState, DiffLine, DiffSection, ReviewSide } from "../protocol/review.ts";
import type { StoredComment } from "../store/reviews.ts";
import { codeOf, numberOn, sideOf } from "../protocol/diff-line.ts";

/**
 * Where a review comment points, held so it can be found again after the agent changes its
 * work: the file, the side and number of the line, the line's text, and the text of up to
 * CONTEXT lines of code on either side of it in its hunk. Pure.
 */
export type Anchor = Pick<StoredComment, "file" | "side" | "line" | "section" | "code" | "before" | "after">;

/** Lines of code kept on either side of a commented line. */
const CONTEXT = 2;
/** A line this long (trimmed) is taken for itself when nothing around it matches any more; a shorter one (`}`) is not. */
const DISTINCT_CHARS = 6;

export type Located = { state: Exclude<CommentState, "changed">; index: number } | { state: "changed"; index: null };

const isCode = (l: DiffLine) => l.kind === "add" || l.kind === "del" || l.kind === "context";

/** Up to CONTEXT lines of code next to line `i` in its hunk, nearest first, going `step`. */
function neighbours(lines: readonly DiffLine[], i: number, step: 1 | -1): string[] {
  const out: string[] = [];
  for (let j = i + step; out.length < CONTEXT && j >= 0 && j < lines.length; j += step) {
    const l = lines[j]!;
    if (l.kind === "note") continue;
    if (!isCode(l)) break;
    out.push(codeOf(l));
  }
  return out;
}

/** The anchor of a comment on line `i`, or null when it is no line of code (a header, a note). */
export function anchorAt(lines: readonly DiffLine[], i: number): Anchor | null {
  const l = lines[i];
  const side = l ? sideOf(l) : null;
  if (!l || !side || l.file === undefined) return null;
  return { file: l.file, side, line: numberOn(l, side)!, section: l.section ?? null, code: codeOf(l), before: neighbours(lines, i, -1), after: neighbours(lines, i, 1) };
}

/** Each diff's first line by file, side and number (and by section too), made once per diff: a comment finds its line in O(1). */
const byNumber = new WeakMap<readonly DiffLine[], Map<string, number>>();
const numberKey = (file: string, side: ReviewSide, line: number, section: string) => `${file}\0${side}\0${line}\0${section}`;

function numberIndex(lines: readonly DiffLine[]): Map<string, number> {
  let index = byNumber.get(lines);
  if (index) return index;
  index = new Map();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.file === undefined) continue;
    for (const side of ["new", "old"] as const) {
      const n = numberOn(l, side);
      if (n === undefined) continue;
      for (const section of [l.section ?? "", "*"]) {
        const key = numberKey(l.file, side, n, section);
        if (!index.has(key)) index.set(key, i);
      }
    }
  }
  byNumber.set(lines, index);
  return index;
}

/**
 * The line numbered `line` on `side` of `file`: in `section` when given, else in the uncommitted
 * change first (what is in the agent's folder now), then the committed one.
 */
export function findLine(lines: readonly DiffLine[], at: { file: string; side: ReviewSide; line: number; section?: DiffSection | null }): number | null {
  const index = numberIndex(lines);
  const key = (section: string) => index.get(numberKey(at.file, at.side, at.line, section));
  return (at.section ? key(at.section) : (key("uncommitted") ?? key("*"))) ?? null;
}

/** How many of the anchor's neighbours line `i` still has, each at its place. */
function contextScore(lines: readonly DiffLine[], i: number, a: Anchor): number {
  const score = (had: string[], now: string[]) => had.reduce((n, text, k) => n + (now[k] === text ? 1 : 0), 0);
  return score(a.before, neighbours(lines, i, -1)) + score(a.after, neighbours(lines, i, 1));
}

/** Each diff's lines of code by file, side and text, made once per diff (a review finds all its comments in one). */
const byText = new WeakMap<readonly DiffLine[], Map<string, number[]>>();
const textKey = (file: string, side: ReviewSide, code: string) => `${file}\0${side}\0${code}`;

/** The lines of `a`'s file and side whose text is `a.code`, in order. */
function sameText(lines: readonly DiffLine[], a: Anchor): readonly number[] {
  let index = byText.get(lines);
  if (!index) {
    index = new Map();
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const side = sideOf(l);
      if (!side || l.file === undefined) continue;
      const key = textKey(l.file, side, codeOf(l));
      const at = index.get(key);
      if (at) at.push(i);
      else index.set(key, [i]);
    }
    byText.set(lines, index);
  }
  return index.get(textKey(a.file, a.side, a.code)) ?? [];
}

/**
 * Where the anchored line is in `lines` now. Among the lines of the same file and side with the
 * same text, the one with the most of its old neighbours, then in the same section, then the
 * nearest to its old number. It is `current` at the same number (and section), `moved`
 * elsewhere; a short line (`}`) whose neighbours all changed is not taken for it (that would
 * guess), and with no candidate it has `changed` since.
 */
export function relocate(lines: readonly DiffLine[], a: Anchor): Located {
  let best: { index: number; score: number; same: boolean; dist: number } | null = null;
  for (const i of sameText(lines, a)) {
    const l = lines[i]!;
    const n = numberOn(l, a.side)!;
    const c = { index: i, score: contextScore(lines, i, a), same: a.section === null || l.section === a.section, dist: Math.abs(n - a.line) };
    if (!best || c.score > best.score || (c.score === best.score && (c.same && !best.same || (c.same === best.same && c.dist < best.dist)))) best = c;
  }
  if (!best) return { state: "changed", index: null };
  const exact = best.dist === 0 && best.same;
  const hadContext = a.before.length + a.after.length > 0;
  if (!exact && best.score === 0 && hadContext && a.code.trim().length < DISTINCT_CHARS) return { state: "changed", index: null };
  return { state: exact ? "current" : "moved", index: best.index };
}
