/** Terminal text helpers shared by the dashboard and `troupe logs`, by columns: pure, no Ink. */
import { stringWidth } from "../runtime/string-width.ts";
import { PRINTABLE_ASCII } from "./sanitize.ts";

/** Columns a string takes in a terminal (wide characters count two). */
export function displayWidth(s: string): number {
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

// made at first use: making one loads ICU's break rules, a few ms of every dashboard's first frame
let segmenter: Intl.Segmenter | undefined;

function graphemes(s: string): string[] {
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

/** `s` cut to `width` columns, ending in an ellipsis when something was cut. */
export function truncate(s: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(s) <= width) return s;
  if (PRINTABLE_ASCII.test(s)) return `${s.slice(0, width - 1)}…`;
  let out = "";
  let used = 0;
  for (const g of graphemes(s)) {
    const w = stringWidth(g);
    if (used + w > width - 1) break;
    out += g;
    used += w;
  }
  return `${out}…`;
}

/** Pads or cuts `s` to exactly `width` columns. */
export function fit(s: string, width: number): string {
  const t = truncate(s, width);
  return t + " ".repeat(Math.max(0, width - displayWidth(t)));
}

/**
 * Word-wraps one line (no newlines) to rows of at most `width` columns: breaks at spaces,
 * breaks a word only when it is longer than a row. Always returns at least one row.
 */
export function wrapText(s: string, width: number): string[] {
  if (width <= 0) return [s];
  if (displayWidth(s) <= width) return [s];
  return PRINTABLE_ASCII.test(s) ? wrapAscii(s, width) : wrapWide(s, width);
}

function wrapAscii(s: string, width: number): string[] {
  const rows: string[] = [];
  let rest = s;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(" ", width);
    if (cut <= 0) cut = width;
    rows.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^ +/, "");
  }
  if (rest !== "" || rows.length === 0) rows.push(rest);
  return rows;
}

function wrapWide(s: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  let used = 0;
  let lastSpace = -1; // index in `row` after the last space
  for (const g of graphemes(s)) {
    const w = stringWidth(g);
    if (used + w > width) {
      if (lastSpace > 0 && g !== " ") {
        rows.push(row.slice(0, lastSpace).trimEnd());
        row = row.slice(lastSpace);
      } else {
        rows.push(row.trimEnd());
        row = "";
      }
      used = displayWidth(row);
      lastSpace = -1;
      if (g === " " && row === "") continue;
    }
    row += g;
    used += w;
    if (g === " ") lastSpace = row.length;
  }
  if (row !== "" || rows.length === 0) rows.push(row);
  return rows;
}
