import type { CommentState, ReviewSide } from "../protocol/review.ts";
import { shellWord } from "./context.ts";

/** One comment as the agent reads it: where (as the line is now), the code, what the person says. */
export interface ReviewItem {
  file: string;
  side: ReviewSide;
  /** Its number now, or as commented when it has changed since. */
  line: number;
  code: string;
  text: string;
  state: CommentState;
}

/** A line of code quoted in the message at most this long (the agent has the file). */
const CODE_CHARS = 400;

const quote = (code: string) => (code.length > CODE_CHARS ? `${code.slice(0, CODE_CHARS)}…` : code);
const indent = (text: string, by: string) => text.split("\n").map((l) => (l ? by + l : l)).join("\n");

function where(c: ReviewItem): string {
  const place = `${c.file}:${c.line}`;
  if (c.state === "changed") return `${place} (you have changed this line since the comment was made; it read:)`;
  return c.side === "old" ? `${place} (a line you removed: ${c.line} is its number before your change)` : place;
}

/**
 * The message a sent review is: each comment with its file, line and the code it refers to,
 * then what to do; the person's `message`, when given, ahead of the comments. It goes the way
 * `troupe send` does (into the running session, or first in the prompt of the resumed one), so
 * it reads whole on its own.
 */
export function reviewMessage(troupe: string, items: readonly ReviewItem[], message?: string): string {
  const n = items.length;
  const head = `Review of your diff by the person: ${n} comment${n === 1 ? "" : "s"} on lines of your work.`;
  const body = items.map((c, i) => `${i + 1}. ${where(c)}\n${indent(`> ${quote(c.code)}`, "   ")}\n${indent(c.text, "   ")}`).join("\n\n");
  const todo = `Address each comment in your worktree (or, where you disagree, say why with \`${shellWord(troupe)} send --user "<text>"\`), then commit.`;
  const word = message?.trim() ? `\n\n${message.trim()}` : "";
  return `${head}${word}\n\n${body}\n\n${todo}`;
}
