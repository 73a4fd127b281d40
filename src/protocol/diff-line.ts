import type { DiffLine, ReviewSide } from "./review.ts";

/**
 * What a line of an agent's diff (review.ts's DiffLine) is to a review comment: the side its
 * number counts on, that number, its text. Plain functions without zod, for the dashboard too.
 */

/** The side a comment on this line counts on: new for an added or unchanged line, old for a removed one; null for a header or a note. */
export function sideOf(l: DiffLine): ReviewSide | null {
  return l.kind === "add" || l.kind === "context" ? "new" : l.kind === "del" ? "old" : null;
}

/** Its number on `side`, when it is a line of code on that side. */
export function numberOn(l: DiffLine, side: ReviewSide): number | undefined {
  return sideOf(l) === side ? (side === "new" ? l.new : l.old) : undefined;
}

/** The line's text without its diff marker. */
export function codeOf(l: DiffLine): string {
  return l.text.slice(1);
}

/** `file:12` for a new-side line, `file:-12` for a removed one (as `troupe review --comment` takes it). */
export function placeOf(file: string, side: ReviewSide, line: number): string {
  return `${file}:${side === "old" ? "-" : ""}${line}`;
}
