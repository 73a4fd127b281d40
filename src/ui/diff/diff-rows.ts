import { numberOn } from "../../protocol/diff-line.ts";
import type { DiffLine, ReviewComment } from "../../protocol/review.ts";

/** A row of the diff view: a line of the diff, or a review comment shown under the line it is on. */
export type DiffRow =
  | { kind: "line"; index: number }
  /** `placed`: under its own line; else under its file's header (or at the top), its line gone or not shown. */
  | { kind: "comment"; comment: ReviewComment; placed: boolean };

/** The line a comment is on now, by the place the daemon found it at (`at`), or -1. */
function lineOf(lines: readonly DiffLine[], c: ReviewComment): number {
  const at = c.at;
  if (!at) return -1;
  return lines.findIndex((l) => l.file === c.file && (l.section ?? null) === at.section && numberOn(l, c.side) === at.line);
}

/** Where a comment whose line is not shown goes: under its file's header (in its section if it can), else first. */
function fallbackOf(lines: readonly DiffLine[], c: ReviewComment): number {
  const headers = lines.map((l, i) => (l.kind === "file" && l.file === c.file ? i : -1)).filter((i) => i >= 0);
  return headers.find((i) => lines[i]!.section === (c.at?.section ?? c.section)) ?? headers[0] ?? -1;
}

let memo: { lines: readonly DiffLine[]; comments: readonly ReviewComment[] | null; rows: DiffRow[] } | null = null;

/**
 * The rows of the view: each line, each comment right under its line (in the order they were
 * made), comments without a line under their file's header, or before the first line. Computed
 * once per (lines, comments) pair: the reducer and the view ask for the same.
 */
export function rowsOf(lines: readonly DiffLine[], comments: readonly ReviewComment[] | null): DiffRow[] {
  if (memo && memo.lines === lines && memo.comments === comments) return memo.rows;
  const under = new Map<number, DiffRow[]>();
  for (const c of comments ?? []) {
    const own = lineOf(lines, c);
    const at = own >= 0 ? own : fallbackOf(lines, c);
    const list = under.get(at) ?? [];
    list.push({ kind: "comment", comment: c, placed: own >= 0 });
    under.set(at, list);
  }
  const rows: DiffRow[] = [...(under.get(-1) ?? [])];
  lines.forEach((_, index) => {
    rows.push({ kind: "line", index });
    const cs = under.get(index);
    if (cs) rows.push(...cs);
  });
  memo = { lines, comments, rows };
  return rows;
}

/** A row's identity across a change of comments: the cursor stays on it. */
export function rowKey(r: DiffRow): string {
  return r.kind === "line" ? `l${r.index}` : `c${r.comment.id}`;
}

/** The first row a window of `rows` rows shows so that `cursor` is in it, starting from `top`. */
export function windowTop(top: number, cursor: number, rows: number, total: number): number {
  const max = Math.max(0, total - rows);
  let t = Math.min(Math.max(0, top), max);
  if (cursor < t) t = cursor;
  else if (cursor >= t + rows) t = cursor - rows + 1;
  return Math.max(0, Math.min(t, max));
}
