import { wrapRow, type LineKind, type RenderedLine } from "../../output/lines.ts";
import type { LineSource } from "../mirror/output-store.ts";

export type { LineSource };

/** Following the end, or pinned with the top row at `line` (absolute), wrapped row `row` of it. */
export type Scroll = { follow: true } | { follow: false; line: number; row: number };

export const FOLLOW: Scroll = { follow: true };

export interface Row {
  text: string;
  kind: LineKind;
  /**
   * Which line (its index modulo the viewport's height) and which of its wrapped rows: unique in a
   * window (it shows at most `height` consecutive lines), the same row keeps its key as the output
   * scrolls, and the row that takes the place of one scrolled off takes its key too (an update of
   * that row's text, not a row removed and another made: streaming output replaces every row of
   * the window at each frame).
   */
  key: string;
}

export interface Viewport {
  width: number;
  height: number;
}

/** A line's rows at a width, kept per line object: a frame wraps only the lines that are new. */
const wrapCache = new WeakMap<RenderedLine, { width: number; rows: string[] }>();

function rowsOf(src: LineSource, i: number, width: number): string[] {
  const line = src.at(i);
  const have = wrapCache.get(line);
  if (have?.width === width) return have.rows;
  const rows = wrapRow(line, width);
  wrapCache.set(line, { width, rows });
  return rows;
}

/** The top anchor that shows the last `height` rows. */
export function bottomAnchor(src: LineSource, vp: Viewport): { line: number; row: number } {
  let need = vp.height;
  for (let i = src.end - 1; i >= src.base; i--) {
    const n = rowsOf(src, i, vp.width).length;
    if (n >= need) return { line: i, row: n - need };
    need -= n;
  }
  return { line: src.base, row: 0 };
}

function anchorOf(src: LineSource, vp: Viewport, s: Scroll): { line: number; row: number } {
  if (s.follow) return bottomAnchor(src, vp);
  if (s.line < src.base) return { line: src.base, row: 0 };
  return { line: s.line, row: s.row };
}

export interface Window {
  rows: Row[];
  /** Whole lines after the last one shown. */
  below: number;
}

/** Only the rows that fit the viewport: wrapping work is proportional to the window, not the history. */
export function visibleWindow(src: LineSource, vp: Viewport, s: Scroll): Window {
  const rows: Row[] = [];
  if (vp.height <= 0 || src.end === src.base) return { rows, below: 0 };
  const { line, row } = anchorOf(src, vp, s);
  let last = line;
  for (let i = line; i < src.end && rows.length < vp.height; i++) {
    const l = src.at(i);
    const wrapped = rowsOf(src, i, vp.width);
    for (let r = i === line ? row : 0; r < wrapped.length && rows.length < vp.height; r++) rows.push({ text: wrapped[r]!, kind: l.kind, key: `${i % vp.height}.${r}` });
    last = i;
  }
  return { rows, below: s.follow ? 0 : src.end - 1 - last };
}

/** Moves by `delta` rows (negative: up). Reaching the end follows again. */
export function scrollBy(src: LineSource, vp: Viewport, s: Scroll, delta: number): Scroll {
  if (src.end === src.base) return FOLLOW;
  let { line, row } = anchorOf(src, vp, s);
  const bottom = bottomAnchor(src, vp);
  if (delta < 0) {
    let left = -delta;
    while (left > 0) {
      if (row >= left) {
        row -= left;
        left = 0;
      } else {
        left -= row + 1;
        if (line - 1 < src.base) {
          row = 0;
          break;
        }
        line -= 1;
        row = rowsOf(src, line, vp.width).length - 1;
      }
    }
    // Scrolling up from the bottom by less than a row still pins the view.
    return { follow: false, line, row };
  }
  let left = delta;
  while (left > 0) {
    const n = rowsOf(src, line, vp.width).length;
    if (row + left < n) {
      row += left;
      left = 0;
    } else {
      left -= n - row;
      line += 1;
      row = 0;
      if (line >= src.end) break;
    }
    if (line > bottom.line || (line === bottom.line && row >= bottom.row)) return FOLLOW;
  }
  if (line > bottom.line || (line === bottom.line && row >= bottom.row)) return FOLLOW;
  return { follow: false, line, row };
}

export function scrollHome(src: LineSource, vp: Viewport): Scroll {
  const bottom = bottomAnchor(src, vp);
  if (bottom.line === src.base && bottom.row === 0) return FOLLOW; // everything fits
  return { follow: false, line: src.base, row: 0 };
}

/** A plain array as a line source. */
export function arraySource(lines: readonly RenderedLine[]): LineSource {
  return { base: 0, end: lines.length, at: (i) => lines[i]! };
}
