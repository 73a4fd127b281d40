import type { DiffLine, ReviewSide } from "../protocol/review.ts";
import { numberOn } from "../protocol/diff-line.ts";

/** Runs of consecutive numbers, as `10-24, 38`. */
function ranges(ns: readonly number[]): string {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

const MAX_FILES = 8;

/** Why a comment's line is refused: the file is not in the diff (and which are), or the lines of it the diff shows. */
export function notInDiff(lines: readonly DiffLine[], agent: string, at: { file: string; side: ReviewSide; line: number }): string {
  const numbers = lines.filter((l) => l.file === at.file).map((l) => numberOn(l, at.side)).filter((n): n is number => n !== undefined);
  const sideWord = at.side === "new" ? "" : "removed ";
  if (numbers.length) {
    const other = at.side === "new" ? "; FILE:-LINE names a removed line by its old number" : "";
    return `${at.file}:${at.side === "old" ? "-" : ""}${at.line} is not a ${sideWord}line of ${agent}'s diff (it shows ${sideWord}lines ${ranges(numbers)} of ${at.file}${other})`;
  }
  const files = [...new Set(lines.map((l) => l.file).filter((f): f is string => f !== undefined))];
  if (files.some((f) => f === at.file)) return `${agent}'s diff shows no ${at.side === "new" ? "added or unchanged" : "removed"} lines of ${at.file}`;
  const shown = files.length ? `; its files: ${files.slice(0, MAX_FILES).join(", ")}${files.length > MAX_FILES ? ", …" : ""}` : "; it has no changes";
  return `${at.file} is not in ${agent}'s diff${shown}`;
}
