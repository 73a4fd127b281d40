import { dirname } from "node:path";
import { TroupeError } from "../../errors.ts";
import { SignalSchema, type Signal } from "../../protocol/signal.ts";
import { describeIssue } from "../../protocol/issue.ts";
import { makeDirGuarded, readGuarded, removeGuarded, writeGuarded } from "../../guarded-fs.ts";
import { formatBytes } from "../../protocol/bytes.ts";

/** A signal file larger than this is refused whole: it is a few lines of JSON, not a transcript. */
const SIGNAL_FILE_MAX_BYTES = 1024 * 1024;
/** A longer `result` or `error` is kept to this many characters, with a note saying so. */
export const SIGNAL_TEXT_MAX_CHARS = 64 * 1024;

/** The signal as its file holds it; refused when the reader would refuse the file. */
export function signalText(signal: Signal): string {
  const text = `${JSON.stringify(signal)}\n`;
  // the reader refuses a bigger file whole: refuse it now, while the agent can still shorten it
  if (Buffer.byteLength(text) > SIGNAL_FILE_MAX_BYTES) {
    throw new TroupeError("payload_too_large", `the signal is larger than ${formatBytes(SIGNAL_FILE_MAX_BYTES)}; write long output to a file in your folder and name it in --result`);
  }
  return text;
}

/**
 * The daemon writes an agent's signal file for it (`POST /v1/signal`). The folder around it is the
 * agent's to shape, so nothing is written through a link on the way below `trusted` (the
 * workspace's `.troupe/`), and a link at the path itself is replaced, never written through.
 */
export function writeSignalFile(path: string, trusted: string, text: string): void {
  writeGuarded(path, text, trusted);
}

export type SignalRead =
  | { kind: "ok"; signal: Signal }
  | { kind: "missing" }
  | { kind: "malformed"; reason: string }
  /** Something other than a readable regular file of a sane size sits at the path. */
  | { kind: "unreadable"; reason: string }
  /** A signal file troupe did not write for this session (another agent's, a script's): `found` is what it holds. */
  | { kind: "foreign"; path: string; found: string };

/**
 * Reads the signal file the way the daemon must read anything an agent controls (`readGuarded`):
 * never blocking, never following a link out of `root`, never more than 1 MiB. `root` is the
 * agent's folder; by default the `.troupe` folder holding `output/`.
 */
export function readSignalFile(path: string, root = dirname(dirname(path))): SignalRead {
  const file = readSignalText(path, root);
  return "text" in file ? parseSignal(file.text) : file;
}

/** The signal file's text, read guarded; missing, or unreadable with the reason. */
function readSignalText(path: string, root: string): { text: string } | Extract<SignalRead, { kind: "missing" | "unreadable" }> {
  const file = readGuarded(path, { maxBytes: SIGNAL_FILE_MAX_BYTES, root, rootName: "the agent's folder" });
  if (file.kind === "missing") return file;
  if (file.kind === "refused") return { kind: "unreadable", reason: file.reason };
  return { text: file.text };
}

/** A signal file's text, checked as any signal is. */
export function parseSignal(text: string): Exclude<SignalRead, { kind: "missing" | "unreadable" | "foreign" }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "malformed", reason: "not JSON" };
  }
  const parsed = SignalSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: "malformed", reason: describeIssue(parsed.error, "signal") };
  }
  return { kind: "ok", signal: capText(parsed.data) };
}

/** What a file nobody sent through the daemon holds, for the failure that names it: its start, quoted. */
export function foreignSignal(path: string): SignalRead {
  const file = readSignalText(path, dirname(dirname(path)));
  if (!("text" in file)) return file;
  const text = file.text.trim();
  return { kind: "foreign", path, found: JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text) };
}

function capText(signal: Signal): Signal {
  switch (signal.status) {
    case "done":
      return signal.result === undefined ? signal : { ...signal, result: truncate(signal.result) };
    case "error":
      return { ...signal, error: truncate(signal.error) };
    case "questions":
      return signal;
  }
}

function truncate(text: string): string {
  if (text.length <= SIGNAL_TEXT_MAX_CHARS) return text;
  let cut = text.slice(0, SIGNAL_TEXT_MAX_CHARS);
  // never end on half a surrogate pair
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}\n[troupe: truncated to the first ${SIGNAL_TEXT_MAX_CHARS} of ${text.length} characters]`;
}

/**
 * Before a session starts: whatever sits at its signal path goes (a directory too, an agent's
 * doing: the next session must be able to signal), and its folder is there for the agent. Both
 * refused (`invalid_state`, the link named) when a folder on the way below `trusted` is a link:
 * the daemon never deletes or creates outside the agent's folder.
 */
export function clearSignalFile(path: string, trusted: string): void {
  removeGuarded(path, trusted);
  makeDirGuarded(dirname(path), trusted);
}
