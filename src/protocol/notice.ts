/**
 * Why troupe tells the person about an agent (issue 12): the daemon's `notify.command` gets one
 * of these as `TROUPE_REASON`, and the dashboard names it in its desktop notification.
 */
const NOTICE_REASONS = ["question", "permission", "approval", "message", "failed", "done"] as const;
export type NoticeReason = (typeof NOTICE_REASONS)[number];

/** One thing to tell the person: which agent, why, and a short line of what (the question, the tool). */
export interface Notice {
  agentId: string;
  agentName: string;
  reason: NoticeReason;
  text: string;
  /**
   * The occurrence, stable across daemon restarts (`question:<agent>:<session>`, `permission:<id>`):
   * the same key is never notified twice.
   */
  key: string;
}

/** Most characters of a notice's text: a notification line, not a transcript. */
const NOTICE_TEXT_MAX = 160;

// C0 and C1 controls (ESC, BEL, CR, ...) and DEL: an agent's output must never reach a terminal
// or a notification daemon as a control sequence; `\p{Cf}` covers bidi overrides and zero widths.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\p{Cf}]+/gu;

/** `text` as one short plain line: controls and line breaks become spaces, runs of spaces one, cut to `max` with an ellipsis. */
export function noticeText(text: string, max = NOTICE_TEXT_MAX): string {
  const line = text.replace(CONTROLS, " ").replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}
