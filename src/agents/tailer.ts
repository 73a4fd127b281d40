import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { watch, type FSWatcher } from "chokidar";
import type { OutputChunk, Stream } from "../protocol/output.ts";
import type { ChunkRepo } from "../store/chunks.ts";
import type { SessionRecord } from "../store/sessions.ts";
import type { Logger } from "../daemon/log.ts";

/** Largest piece stored as one chunk; a longer run of output becomes several chunks. */
const READ_BYTES = 64 * 1024;
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
      const buf = this.buf;
      while (t.offset < size) {
        const n = readSync(fd, buf, 0, Math.min(READ_BYTES, size - t.offset), t.offset);
        if (n <= 0) break;
        let end = n;
        if (!final || t.offset + n < size) {
          const nl = buf.lastIndexOf(NEWLINE, n - 1);
          if (nl === -1) {
            if (n < READ_BYTES) break; // a partial line: wait for the rest
          } else {
            end = nl + 1;
          }
        }
        const data = buf.toString("utf8", 0, end);
        const chunk = this.chunks.append({ agentId: t.agentId, session: t.session, stream: t.stream, data, offset: t.offset + end });
        t.offset += end;
        this.onChunk(chunk);
      }
    } catch (err) {
      this.log.error(`reading ${t.path} failed`, err);
    } finally {
      closeSync(fd);
    }
    return t.offset !== start;
  }
}
