/**
 * Text as it may reach a terminal, shared by the dashboard, the CLI and `troupe logs`: pure, no Ink,
 * and no width measure (./text.ts), so what only prints (`troupe answer`) does not load one.
 */

// CSI, OSC (BEL or ST terminated) and two-byte escapes: what programs print to colour or move the
// cursor. The single-byte C1 forms of CSI (0x9b) and OSC (0x9d) are the same commands to a
// terminal that takes C1 controls, so they go whole as well.
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\)/g;
// C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides and isolates (text that
// shows in another order than it reads: "Trojan Source"); an escape left unmatched goes here too
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// a block that needs nothing done: printable ASCII, tabs and newlines
const PLAIN_BLOCK = /^[\x20-\x7e\t\n]*$/;
// where an escape or a C1 control may start: only then is the ANSI pattern worth running
const ESCAPE_START = /[\x1b\x9b\x9d]/;

/** A line as it can be shown: escapes and control characters removed, tabs expanded, a lone \r taken as its last overwrite. */
export function sanitize(line: string): string {
  const s = clean(line);
  return s.includes("\t") ? expandTabs(s) : s;
}

/**
 * Text of several lines as it can reach a terminal: each line as `sanitize` makes it, but its
 * newlines and tabs kept (a diff or a prompt keeps its layout, and a tab cannot overwrite
 * anything). What the CLI writes goes through this (src/cli/streams.ts, `Sink.write`).
 */
export function sanitizeBlock(text: string): string {
  if (PLAIN_BLOCK.test(text)) return text;
  return text.includes("\n") ? text.split("\n").map(clean).join("\n") : clean(text);
}

/** Text of several lines for a layout that counts columns (the dashboard's dialogs): each line as `sanitize` makes it. */
export function sanitizeLines(text: string): string {
  return text.includes("\n") ? text.split("\n").map(sanitize).join("\n") : sanitize(text);
}

/** One line without escapes, controls (tabs kept) and what a carriage return overwrote. */
function clean(line: string): string {
  if (PRINTABLE_ASCII.test(line)) return line;
  let s = ESCAPE_START.test(line) ? line.replace(ANSI, "") : line;
  if (s.includes("\r")) {
    const parts = s.split("\r").filter((p) => p !== "");
    s = parts.length ? parts[parts.length - 1]! : "";
  }
  return s.replace(CONTROL, "");
}

function expandTabs(s: string): string {
  let out = "";
  for (const ch of s) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch;
  return out;
}
