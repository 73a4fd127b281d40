import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { watch, type FSWatcher } from "chokidar";
import type { OutputChunk, Stream } from "../protocol/output.ts";
import type { ChunkRepo } from "../store/chunks.ts";
import type { SessionRecord } from "../store/sessions.ts";
import type { Logger } from "../events/log.ts";

/** Largest piece stored as one chunk; a longer run of output becomes several chunks. */
const READ_BYTES = 64 * 1024;
/** A line longer than a chunk is read whole up to this; past it, it is split (at a UTF-8 boundary). */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Most bytes one read call stores before yielding, so a large backlog does not stall the daemon. */
const MAX_READ_PER_CALL = 4 * 1024 * 1024;
const SWEEP_MS = 500;
/**
 * chokidar reports at most one change per file per 50 ms and drops the rest (no trailing
 * event), so after each event the file is read again every FOLLOW_MS until FOLLOW_FOR_MS
 * pass with nothing new: output written inside the throttle window is seen within ~15 ms,
 * not at the next sweep.
 */
const FOLLOW_MS = 15;
const FOLLOW_FOR_MS = 60;
const NEWLINE = 0x0a;

interface Tracked {
  agentId: string;
  session: number;
  stream: Stream;
  path: string;
  offset: number;
  followUntil: number;
  follow: ReturnType<typeof setTimeout> | null;
}

/**
 * Follows agents' output files from byte offsets kept in the store. Only whole lines are stored
 * (a partial line waits for its newline, or for the end of the session); each chunk and the
 * offset it reaches are committed together, so after a crash nothing is stored twice or skipped.
 */
export class Tailer {
  private readonly files = new Map<string, Tracked>();
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);
  private watcher: FSWatcher | null = null;
  private sweep: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly chunks: ChunkRepo,
    private readonly onChunk: (chunk: OutputChunk) => void,
    private readonly log: Logger,
  ) {}

  start(logsRoot: string): void {
    this.watcher = watch(logsRoot, { ignoreInitial: true, depth: 3, persistent: true });
    const onFs = (path: string) => {
      const t = this.files.get(path);
      if (!t) return;
      this.read(t, false);
      this.follow(t);
    };
    this.watcher.on("change", onFs).on("add", onFs).on("error", (e) => this.log.warn("watcher error", e));
    // inotify can coalesce or miss events (and a watcher may not cover a file yet): a slow sweep is the net.
    this.sweep = setInterval(() => {
      for (const t of this.files.values()) this.read(t, false);
    }, SWEEP_MS);
  }

  async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    for (const t of this.files.values()) if (t.follow) clearTimeout(t.follow);
    await this.watcher?.close();
  }

  private follow(t: Tracked): void {
    t.followUntil = Date.now() + FOLLOW_FOR_MS;
    if (t.follow) return;
    const tick = () => {
      t.follow = null;
      if (this.files.get(t.path) !== t) return;
      if (this.read(t, false)) t.followUntil = Date.now() + FOLLOW_FOR_MS;
      if (Date.now() < t.followUntil) t.follow = setTimeout(tick, FOLLOW_MS);
    };
    t.follow = setTimeout(tick, FOLLOW_MS);
  }

  add(s: SessionRecord): void {
    for (const [stream, path, offset] of [
      ["stdout", s.stdoutPath, s.stdoutOffset],
      ["stderr", s.stderrPath, s.stderrOffset],
    ] as const) {
      const t: Tracked = { agentId: s.agentId, session: s.session, stream, path, offset, followUntil: 0, follow: null };
      this.files.set(path, t);
      this.read(t, false);
    }
  }

  /** Reads a session to the end of its files, partial last lines included, and stops following it. */
  finish(s: SessionRecord): void {
    for (const path of [s.stdoutPath, s.stderrPath]) {
      const t: Tracked = this.files.get(path) ?? {
        agentId: s.agentId,
        session: s.session,
        stream: path === s.stdoutPath ? "stdout" : "stderr",
        path,
        offset: path === s.stdoutPath ? s.stdoutOffset : s.stderrOffset,
        followUntil: 0,
        follow: null,
      };
      this.read(t, true);
      if (t.follow) clearTimeout(t.follow);
      this.files.delete(path);
    }
  }

  /** Stores what is new in the file; true when there was something. */
  private read(t: Tracked, final: boolean): boolean {
    const start = t.offset;
    let fd: number;
    try {
      fd = openSync(t.path, "r");
    } catch {
      return false; // not created yet
    }
    try {
      const size = fstatSync(fd).size;
      while (t.offset < size) {
        if (!final && t.offset - start >= MAX_READ_PER_CALL) {
          this.follow(t); // the rest on the next turn of the event loop
          break;
        }
        const piece = this.nextPiece(fd, t.offset, size, final);
        if (!piece) break; // a partial line: wait for the rest
        const chunk = this.chunks.append({ agentId: t.agentId, session: t.session, stream: t.stream, data: piece.data, offset: t.offset + piece.bytes });
        t.offset += piece.bytes;
        this.onChunk(chunk);
      }
    } catch (err) {
      this.log.error(`reading ${t.path} failed`, err);
    } finally {
      closeSync(fd);
    }
    return t.offset !== start;
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
