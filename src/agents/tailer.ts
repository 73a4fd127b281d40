import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { watch, type FSWatcher } from "chokidar";
import type { OutputChunk, Stream } from "../protocol/output.ts";
import type { ChunkRepo } from "../store/chunks.ts";
import type { SessionRecord } from "../store/sessions.ts";
import type { Logger } from "../daemon/log.ts";

/** Largest piece stored as one chunk; a longer run of output becomes several chunks. */
const READ_BYTES = 64 * 1024;
const SWEEP_MS = 500;
const NEWLINE = 0x0a;

interface Tracked {
  agentId: string;
  session: number;
  stream: Stream;
  path: string;
  offset: number;
}

/**
 * Follows agents' output files from byte offsets kept in the store. Only whole lines are stored
 * (a partial line waits for its newline, or for the end of the session); each chunk and the
 * offset it reaches are committed together, so after a crash nothing is stored twice or skipped.
 */
export class Tailer {
  private readonly files = new Map<string, Tracked>();
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
      if (t) this.read(t, false);
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

  add(s: SessionRecord): void {
    for (const [stream, path, offset] of [
      ["stdout", s.stdoutPath, s.stdoutOffset],
      ["stderr", s.stderrPath, s.stderrOffset],
    ] as const) {
      const t: Tracked = { agentId: s.agentId, session: s.session, stream, path, offset };
      this.files.set(path, t);
      this.read(t, false);
    }
  }

  /** Reads a session to the end of its files, partial last lines included, and stops following it. */
  finish(s: SessionRecord): void {
    for (const path of [s.stdoutPath, s.stderrPath]) {
      const t = this.files.get(path) ?? {
        agentId: s.agentId,
        session: s.session,
        stream: path === s.stdoutPath ? "stdout" : "stderr",
        path,
        offset: path === s.stdoutPath ? s.stdoutOffset : s.stderrOffset,
      };
      this.read(t, true);
      this.files.delete(path);
    }
  }

  private read(t: Tracked, final: boolean): void {
    let fd: number;
    try {
      fd = openSync(t.path, "r");
    } catch {
      return; // not created yet
    }
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(READ_BYTES);
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
  }
}
