import { fstatSync, readSync } from "node:fs";
import type { Piece } from "../../store/chunks.ts";
import type { Logger } from "../../events/log.ts";
import { openTailed, type TailedFile } from "./tailed-file.ts";

/** Largest piece stored as one chunk; a longer run of output becomes several chunks. */
const READ_BYTES = 64 * 1024;
/** A line longer than a chunk is read whole up to this; past it, it is split (at a UTF-8 boundary). */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

/** How far a read of one file got: the offset reached, the file's size, and whether more is left past the budget. */
export interface Reached {
  offset: number;
  size: number;
  more: boolean;
}

/**
 * Reads whole lines of an output file as pieces to store: a partial line waits for its newline,
 * or for the end of the session (then whatever is left is one last piece).
 */
export class LineReader {
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);

  constructor(private readonly log: Logger) {}

  /** Reads whole-line pieces of one file into `batch`, up to `budget` bytes; null when there is no file yet. */
  read(t: TailedFile, from: number, batch: Piece[], budget: number): Reached | null {
    const fd = openTailed(t, this.log);
    if (fd === "later") return null;
    if (fd === "absent") return t.finishing ? { offset: from, size: 0, more: false } : null; // not created (a run that wrote nothing)
    let offset = from;
    let size = 0;
    try {
      size = fstatSync(fd).size;
      while (offset < size && offset - from < budget) {
        const piece = this.nextPiece(fd, offset, size, t.finishing !== null);
        if (!piece) break; // a partial line: wait for the rest
        offset += piece.bytes;
        batch.push({ agentId: t.agentId, session: t.session, stream: t.stream, data: piece.data, bytes: piece.bytes, offset });
      }
    } catch (err) {
      this.log.error(`reading ${t.path} failed`, err);
    }
    return { offset, size, more: offset < size && offset - from >= budget };
  }

  /**
   * The next piece to store from `offset`: whole lines up to READ_BYTES; a single longer line
   * whole, up to MAX_LINE_BYTES; at the end of a session, whatever is left.
   */
  private nextPiece(fd: number, offset: number, size: number, final: boolean): { data: string; bytes: number } | null {
    const n = readSync(fd, this.buf, 0, Math.min(READ_BYTES, size - offset), offset);
    if (n <= 0) return null;
    if (final && offset + n >= size) return { data: this.buf.toString("utf8", 0, n), bytes: n };
    const nl = this.buf.lastIndexOf(NEWLINE, n - 1);
    if (nl !== -1) return { data: this.buf.toString("utf8", 0, nl + 1), bytes: nl + 1 };
    if (n < READ_BYTES) return null;
    // one line longer than a chunk: find its end
    const big = Buffer.allocUnsafe(Math.min(MAX_LINE_BYTES, size - offset));
    const m = readSync(fd, big, 0, big.length, offset);
    const end = big.indexOf(NEWLINE);
    if (end !== -1 && end < m) return { data: big.toString("utf8", 0, end + 1), bytes: end + 1 };
    if (m < MAX_LINE_BYTES && !final) return null;
    // longer than any line we hold whole: split it, never inside a UTF-8 character
    let cut = m;
    while (cut > 0 && (big[cut - 1]! & 0xc0) === 0x80) cut--;
    if (cut > 0 && big[cut - 1]! >= 0xc0) cut--;
    return { data: big.toString("utf8", 0, cut), bytes: cut };
  }
}
