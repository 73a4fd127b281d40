import { closeSync, fstatSync, openSync } from "node:fs";
import type { FileStream } from "../../protocol/output.ts";
import type { SessionRecord } from "../../store/sessions.ts";
import type { Logger } from "../../events/log.ts";

/** One output file of a session, as the tailer follows it. */
export interface TailedFile {
  agentId: string;
  session: number;
  stream: FileStream;
  path: string;
  /** Bytes stored so far (the store's offset). */
  offset: number;
  /** Bytes before this are stored and their blocks freed (a hole; see retention.ts). */
  released: number;
  /** Releasing the stored bytes up to here, a bounded amount a pass. */
  releaseTo: number;
  /** Looked at again until then after news (see change-watch.ts). */
  followUntil: number;
  /**
   * The file, open from its first read until its session's end: a look is an fstat and a read a
   * pread, with no path lookup, open or close per line (those were a fifth of the tailer's CPU
   * per line with 200 agents writing a line a second).
   */
  fd: number | null;
  /** An open other than "not there yet" failed (said once in the log). */
  openFailed: boolean;
  /** Set once the session ended: read to the very end, partial last line included, then resolve. */
  finishing: { promise: Promise<void>; resolve: () => void } | null;
}

export function tailedFile(s: SessionRecord, stream: FileStream, path: string, offset: number): TailedFile {
  return { agentId: s.agentId, session: s.session, stream, path, offset, released: 0, releaseTo: 0, followUntil: 0, fd: null, openFailed: false, finishing: null };
}

/**
 * The file's fd, opened once; "absent" while it does not exist (a run that wrote nothing yet),
 * "later" when it could not be opened otherwise (out of descriptors, say): the sweep tries again,
 * and a finishing session is not ended as if it had written nothing.
 */
export function openTailed(t: TailedFile, log: Logger): number | "absent" | "later" {
  if (t.fd !== null) return t.fd;
  try {
    t.fd = openSync(t.path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    if (!t.openFailed) log.warn(`opening ${t.path} failed; trying again`, err);
    t.openFailed = true;
    return "later";
  }
  return t.fd;
}

export function closeTailed(t: TailedFile): void {
  if (t.fd === null) return;
  closeSync(t.fd);
  t.fd = null;
}

/** A look without a read: the file grew past what is stored (or is gone while finishing). */
export function grew(t: TailedFile, log: Logger): boolean {
  if (t.finishing) return true;
  const fd = openTailed(t, log);
  return typeof fd === "number" && fstatSync(fd).size > t.offset;
}
