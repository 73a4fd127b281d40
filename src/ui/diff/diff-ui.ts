import type { DiffLine, ReviewComment } from "../../protocol/review.ts";
import { rowsOf, rowKey, windowTop } from "./diff-rows.ts";

export interface DiffState {
  /** What the diff is of (an agent or initiative id): a late answer for another is dropped. */
  key: string;
  title: string;
  /** The agent whose work it is, who a review goes to; null for an initiative's diff. */
  agentId: string | null;
  lines: DiffLine[] | null;
  error: string | null;
  /** The first row shown, and the row under the cursor (rows: diff-rows.ts). */
  top: number;
  cursor: number;
  /** The pending review's comments; null until loaded (always for an initiative). */
  comments: ReviewComment[] | null;
  /** Why the review could not be read. */
  reviewError: string | null;
  /** `S` was pressed and the daemon has not answered yet (a second S sends nothing twice). */
  sending: boolean;
}

/** How the cursor moves: a row, a page (`page` rows shown), or to the first or last row. */
export type CursorMove = "up" | "down" | "pageUp" | "pageDown" | "first" | "last";

export type DiffAction =
  /** Opens the diff view over the current one (`ui-state.ts` pushes it on the view stack). */
  | { type: "diffOpen"; key: string; title: string; agentId: string | null }
  | { type: "diffLoaded"; key: string; lines: DiffLine[] }
  | { type: "diffFailed"; key: string; error: string }
  | { type: "diffCursor"; move: CursorMove; page: number }
  | { type: "reviewLoaded"; key: string; comments: ReviewComment[] }
  | { type: "reviewFailed"; key: string; error: string }
  /** A comment added or edited (by id), or deleted. */
  | { type: "commentSaved"; key: string; comment: ReviewComment }
  | { type: "commentDeleted"; key: string; id: string }
  /** `S`: the review is on its way; then it was sent (its comments are gone), or refused. */
  | { type: "reviewSending"; key: string }
  | { type: "reviewSent"; key: string }
  | { type: "reviewSendFailed"; key: string };

function moved(cursor: number, move: CursorMove, page: number, total: number): number {
  const last = Math.max(0, total - 1);
  const step = Math.max(1, page - 1);
  const next = move === "first" ? 0 : move === "last" ? last : cursor + (move === "up" ? -1 : move === "down" ? 1 : move === "pageUp" ? -step : step);
  return Math.max(0, Math.min(last, next));
}

/** New comments, the cursor kept on the row it was on (a deleted comment's: the row above it). */
function withComments(d: DiffState, comments: ReviewComment[]): DiffState {
  if (!d.lines) return { ...d, comments, reviewError: null };
  const before = rowsOf(d.lines, d.comments);
  const after = rowsOf(d.lines, comments);
  const key = before[d.cursor] ? rowKey(before[d.cursor]!) : null;
  const same = key === null ? -1 : after.findIndex((r) => rowKey(r) === key);
  const cursor = same >= 0 ? same : Math.max(0, Math.min(after.length - 1, d.cursor - 1));
  return { ...d, comments, cursor, reviewError: null };
}

export function diffReducer(d: DiffState | null, action: DiffAction): DiffState | null {
  switch (action.type) {
    case "diffOpen":
      return { key: action.key, title: action.title, agentId: action.agentId, lines: null, error: null, top: 0, cursor: 0, comments: null, reviewError: null, sending: false };
    case "diffLoaded":
      if (d?.key !== action.key) return d;
      return { ...d, lines: action.lines, error: null, cursor: 0, top: 0 };
    case "diffFailed":
      if (d?.key !== action.key) return d;
      return { ...d, error: action.error };
    case "diffCursor": {
      if (!d?.lines) return d;
      const total = rowsOf(d.lines, d.comments).length;
      const cursor = moved(d.cursor, action.move, action.page, total);
      // a page turns the view with the cursor (as a pager does); a line moves the view only at its edge
      const turned = action.move === "pageUp" || action.move === "pageDown" ? d.top + cursor - d.cursor : d.top;
      return { ...d, cursor, top: windowTop(turned, cursor, action.page, total) };
    }
    case "reviewLoaded":
      if (d?.key !== action.key) return d;
      return withComments(d, action.comments);
    case "reviewFailed":
      if (d?.key !== action.key) return d;
      return { ...d, reviewError: action.error };
    case "commentSaved": {
      if (d?.key !== action.key) return d;
      const cs = d.comments ?? [];
      const has = cs.some((c) => c.id === action.comment.id);
      return withComments(d, has ? cs.map((c) => (c.id === action.comment.id ? action.comment : c)) : [...cs, action.comment]);
    }
    case "commentDeleted":
      if (d?.key !== action.key) return d;
      return withComments(d, (d.comments ?? []).filter((c) => c.id !== action.id));
    case "reviewSending":
      if (d?.key !== action.key) return d;
      return { ...d, sending: true };
    case "reviewSent":
      if (d?.key !== action.key) return d;
      return { ...withComments(d, []), sending: false };
    case "reviewSendFailed":
      if (d?.key !== action.key) return d;
      return { ...d, sending: false };
  }
}

/** The row under the cursor. */
export function cursorRow(d: DiffState) {
  return d.lines ? (rowsOf(d.lines, d.comments)[d.cursor] ?? null) : null;
}
