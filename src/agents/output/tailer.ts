import { dirname } from "node:path";
import type { FileStream, OutputChunk } from "../../protocol/output.ts";
import type { ChunkRepo, Piece } from "../../store/chunks.ts";
import type { WalCheckpoints } from "../../store/checkpoints.ts";
import type { SessionRecord } from "../../store/sessions.ts";
import type { Logger } from "../../events/log.ts";
import { ChangeWatch } from "./change-watch.ts";
import { LineReader, type Reached } from "./line-reader.ts";
import { Retention } from "./retention.ts";
import { closeTailed, grew, tailedFile, type TailedFile } from "./tailed-file.ts";

/**
 * One pass stores at most this much, in one transaction, then gives the event loop back
 * (setImmediate) so requests are answered between passes however much output waits.
 */
const PASS_BYTES = 1024 * 1024;
const PASS_MS = 8;
/** Most one file gives a pass, so a flooding agent leaves room for the others' output. */
const FILE_PASS_BYTES = 256 * 1024;

export interface TailerOptions {
  /** Stored output per agent (read again at each session start); past it the oldest is dropped. */
  capBytes?: () => number;
  /** Told of every write, to checkpoint the WAL off this thread; while it catches up, output waits. */
  wal?: WalCheckpoints;
}

/**
 * Follows agents' output files from byte offsets kept in the store, in four jobs: noticing changes
 * (change-watch.ts), reading whole lines (line-reader.ts), storing them in batches (here), and
 * retention (retention.ts). Only whole lines are stored (a partial line waits for its newline, or
 * for the end of the session); chunks and the offsets they reach are committed together, so after
 * a crash nothing is stored twice or skipped.
 *
 * Storing is a queue of files with news, worked through in bounded passes, one per turn of the
 * event loop, round-robin across files: ingest never holds the loop for long, and one flooding
 * agent neither starves the API nor the other agents. Maintenance passes (retention) alternate
 * with read passes while both have work.
 */
export class Tailer {
  private readonly files = new Map<string, TailedFile>();
  private readonly pending = new Set<TailedFile>();
  private readonly reader: LineReader;
  private readonly retention: Retention;
  private readonly changes: ChangeWatch;
  private readonly wal: WalCheckpoints | null;
  private waitingForWal = false;
  private maintainNext = false;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly chunks: ChunkRepo,
    private readonly onChunk: (chunk: OutputChunk) => void,
    private readonly log: Logger,
    opts: TailerOptions = {},
  ) {
    this.wal = opts.wal ?? null;
    this.reader = new LineReader(log);
    this.retention = new Retention(chunks, log, opts.capBytes);
    this.changes = new ChangeWatch(
      {
        at: (path) => this.files.get(path),
        all: () => this.files.values(),
        grew: (t) => grew(t, this.log),
        wake: (t) => this.wake(t),
      },
      log,
    );
  }

  start(): void {
    this.retention.start();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.changes.stop();
    for (const t of this.files.values()) closeTailed(t);
  }

  add(s: SessionRecord): void {
    this.retention.refreshCap();
    const stored = this.chunks.offsets(s.agentId, s.session); // the newest chunk may be past the session row (see output-tally.ts)
    for (const [stream, path, offset] of [
      ["stdout", s.stdoutPath, stored?.stdout ?? s.stdoutOffset],
      ["stderr", s.stderrPath, stored?.stderr ?? s.stderrOffset],
    ] as const) {
      const known = this.files.get(path);
      const same = known !== undefined && known.agentId === s.agentId && known.session === s.session;
      // a path followed for another agent or session (one removed, its name taken again, before its
      // end was read): that entry's fd and folder watch belong to files that are gone
      if (known && !same) this.drop(known);
      this.wake(same ? known : this.track(s, stream, path, offset));
    }
    this.changes.sweepWhileActive();
  }

  /**
   * Forgets an agent that is being removed: its files are not read again (they are about to be
   * deleted, and its records with them: a line read from an open descriptor afterwards would be
   * refused by the store, and the batch with it, every sweep), and its sessions' ends resolve.
   */
  forgetAgent(agentId: string): void {
    for (const t of [...this.files.values()]) if (t.agentId === agentId) this.drop(t);
    this.chunks.forget(agentId);
  }

  /** Forgets a followed file without reading it again: its fd closed, its folder watched afresh when followed next. */
  private drop(t: TailedFile): void {
    this.files.delete(t.path);
    this.pending.delete(t);
    this.changes.unfollow(t);
    closeTailed(t);
    this.changes.forgetDir(dirname(t.path));
    t.finishing?.resolve();
  }

  /** Gives the store's free pages back to the file system (an agent's output was removed; see Retention). */
  releaseSpace(): void {
    if (this.retention.releaseSpace()) this.schedule();
  }

  /**
   * Stores the rest of a session's files, partial last lines included, over as many passes as it
   * takes, and stops following them. Resolves once all of it is stored (never while the tailer is
   * stopped first: the session then stays open in the store, and the next daemon finishes it).
   */
  finish(s: SessionRecord): Promise<void> {
    const stored = this.chunks.offsets(s.agentId, s.session);
    const done = (
      [
        ["stdout", s.stdoutPath, stored?.stdout ?? s.stdoutOffset],
        ["stderr", s.stderrPath, stored?.stderr ?? s.stderrOffset],
      ] as const
    ).map(([stream, path, offset]) => {
      const t = this.files.get(path) ?? this.track(s, stream, path, offset);
      if (!t.finishing) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        t.finishing = { promise, resolve };
      }
      this.changes.unfollow(t);
      this.wake(t);
      return t.finishing.promise;
    });
    return Promise.all(done).then(() => undefined);
  }

  private track(s: SessionRecord, stream: FileStream, path: string, offset: number): TailedFile {
    const t = tailedFile(s, stream, path, offset);
    this.files.set(path, t);
    this.changes.watchDir(dirname(path));
    return t;
  }

  private wake(t: TailedFile): void {
    this.pending.add(t);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    if (!this.pending.size && !this.retention.due) return;
    if (this.wal?.holding) {
      // the WAL is catching up on a worker thread: what waits is stored once it has
      if (!this.waitingForWal) {
        this.waitingForWal = true;
        this.wal.onRelease(() => {
          this.waitingForWal = false;
          this.schedule();
        });
      }
      return;
    }
    this.scheduled = true;
    setImmediate(() => this.pump());
  }

  /** One bounded step: reading, or (every other turn while due) dropping over the cap and freeing pages. */
  private pump(): void {
    this.scheduled = false;
    if (this.stopped) return;
    const maintain = this.retention.due && (this.maintainNext || !this.pending.size);
    this.maintainNext = !maintain;
    try {
      if (maintain) {
        this.retention.pass();
        this.wal?.wrote();
      } else this.readPass();
    } catch (err) {
      // the store refused (disk full, ...): the sweep tries again, not a hot loop
      this.log.error("storing output failed", err);
      this.pending.clear();
      this.retention.reset();
      return;
    }
    this.schedule();
  }

  private readPass(): void {
    const started = performance.now();
    const batch: Piece[] = [];
    const reached = new Map<TailedFile, Reached>();
    let budget = PASS_BYTES;
    for (const t of this.pending) {
      if (budget <= 0 || performance.now() - started > PASS_MS) break;
      this.pending.delete(t);
      const from = reached.get(t)?.offset ?? t.offset;
      const r = this.reader.read(t, from, batch, Math.min(FILE_PASS_BYTES, budget));
      if (!r) continue;
      budget -= r.offset - from;
      reached.set(t, r);
      if (r.more) this.pending.add(t); // to the back of the queue (a Set iterates what is added meanwhile)
    }
    if (!reached.size) return;
    const { chunks, stored } = batch.length ? this.chunks.appendMany(batch) : { chunks: [], stored: new Map<string, number>() };
    for (const [t, r] of reached) {
      const news = r.offset !== t.offset;
      t.offset = r.offset;
      if (t.finishing && !r.more) this.finished(t, r.size);
      else if (news) {
        this.changes.followFor(t);
        this.retention.releaseStored(t);
      }
    }
    for (const chunk of chunks) {
      try {
        this.onChunk(chunk);
      } catch (err) {
        this.log.error("handling an output chunk failed", err);
      }
    }
    this.retention.stored(stored);
    if (PASS_BYTES > budget) this.wal?.wrote(PASS_BYTES - budget);
  }

  /** The end of a finished session's file: everything is stored; it is followed no more. */
  private finished(t: TailedFile, size: number): void {
    if (this.files.get(t.path) === t) {
      this.files.delete(t.path);
      this.changes.unwatchDir(dirname(t.path));
    }
    this.pending.delete(t);
    this.changes.unfollow(t);
    closeTailed(t);
    this.retention.finished(t, size);
    t.finishing?.resolve();
  }
}
