import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OutputChunk, Stream } from "../protocol/output.ts";
import { DEFAULT_OUTPUT_CAP } from "../protocol/config.ts";
import type { ChunkRepo, Piece } from "../store/chunks.ts";
import type { WalCheckpoints } from "../store/checkpoints.ts";
import type { SessionRecord } from "../store/sessions.ts";
import type { Logger } from "../events/log.ts";
import { punchHole } from "../runtime/punch-hole.ts";
import { watchDir, type DirWatcher } from "../runtime/watch.ts";

/** Largest piece stored as one chunk; a longer run of output becomes several chunks. */
const READ_BYTES = 64 * 1024;
/** A line longer than a chunk is read whole up to this; past it, it is split (at a UTF-8 boundary). */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/**
 * One pass stores at most this much, in one transaction, then gives the event loop back
 * (setImmediate) so requests are answered between passes however much output waits.
 */
const PASS_BYTES = 1024 * 1024;
const PASS_MS = 8;
/** Most one file gives a pass, so a flooding agent leaves room for the others' output. */
const FILE_PASS_BYTES = 256 * 1024;
/** Most output dropped under the cap in one pass (a bounded transaction, like a read pass). */
const DROP_PER_PASS = 8 * 1024 * 1024;
/**
 * Once a drop leaves more free pages than this, they all go back to the file system, this many
 * per pass. Fewer are left for new output to reuse: a steady flood at the cap frees a few MiB at a
 * time and refills them at once, and giving them back only to grow the file again is wasted work.
 */
const KEEP_FREE_BYTES = 16 * 1024 * 1024;
const VACUUM_PAGES_PER_PASS = 256;
const BLOCK = 4096;
/** Most of a raw file's stored bytes freed in one pass. */
const RELEASE_BYTES = 16 * 1024 * 1024;
/**
 * inotify can coalesce events (and a folder that did not exist yet could not be watched): a sweep
 * looks at every file's size now and then, but only while output comes in (until SWEEP_FOR_MS
 * after the last news), so an idle daemon has no timer. A stat per file, no read unless it grew.
 */
const SWEEP_MS = 2_000;
const SWEEP_FOR_MS = 10_000;
/**
 * Bun's fs.watch drops the last of a quick run of changes (measured: writes 1 ms apart, no event
 * after the final one), so a file that had news is looked at again every FOLLOW_MS until
 * FOLLOW_FOR_MS pass with nothing new: output written in a burst is seen within ~15 ms, not at
 * the next sweep. A look is a stat; only a file that grew is read. Quiet files cost no timer.
 */
const FOLLOW_MS = 15;
const FOLLOW_FOR_MS = 60;
const NEWLINE = 0x0a;

interface Tracked {
  agentId: string;
  session: number;
  stream: Stream;
  path: string;
  /** Bytes stored so far (the store's offset). */
  offset: number;
  /** Bytes before this are stored and their blocks freed (a hole). */
  released: number;
  /** Releasing the stored bytes up to here, RELEASE_BYTES a pass. */
  releaseTo: number;
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

export interface TailerOptions {
  /** Stored output per agent (read again at each session start); past it the oldest is dropped. */
  capBytes?: () => number;
  /** Told of every write, to checkpoint the WAL off this thread; while it catches up, output waits. */
  wal?: WalCheckpoints;
}

/**
 * Follows agents' output files from byte offsets kept in the store. Only whole lines are stored
 * (a partial line waits for its newline, or for the end of the session); chunks and the offsets
 * they reach are committed together, so after a crash nothing is stored twice or skipped.
 *
 * Reading is a queue of files with news, worked through in bounded passes, one per turn of the
 * event loop, round-robin across files: ingest never holds the loop for long, and one flooding
 * agent neither starves the API nor the other agents. Each agent's stored output is capped
 * (oldest chunks dropped, a marker in their place), and what is stored is released from the raw
 * files once they pass the cap.
 */
export class Tailer {
  private readonly files = new Map<string, Tracked>();
  private readonly pending = new Set<Tracked>();
  private readonly following = new Set<Tracked>();
  private readonly overCap = new Set<string>();
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);
  private readonly capFn: () => number;
  private readonly wal: WalCheckpoints | null;
  private cap = DEFAULT_OUTPUT_CAP;
  private vacuum = false;
  private waitingForWal = false;
  private lastNews = 0;
  private maintainNext = false;
  private scheduled = false;
  private stopped = false;
  private canRelease = true;
  /**
   * One inotify watch per session folder (node:fs watch): chokidar, used before, re-read the whole
   * folder (readdir + an lstat per entry) and stat'ed the file on every write, several times the
   * cost of storing the line.
   */
  private readonly dirs = new Map<string, DirWatcher>();
  private sweep: ReturnType<typeof setTimeout> | null = null;
  private followTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly chunks: ChunkRepo,
    private readonly onChunk: (chunk: OutputChunk) => void,
    private readonly log: Logger,
    opts: TailerOptions = {},
  ) {
    this.capFn = opts.capBytes ?? (() => DEFAULT_OUTPUT_CAP);
    this.wal = opts.wal ?? null;
  }

  start(): void {
    this.refreshCap();
    // a store from before the cap (or a lowered cap): bring every agent under it, a pass at a time
    for (const id of this.chunks.agentsOver(this.cap)) this.overCap.add(id);
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweep) clearTimeout(this.sweep);
    if (this.followTimer) clearTimeout(this.followTimer);
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
    for (const t of this.files.values()) this.closeFile(t);
  }

  /** Watches the folder of a followed file (once); a folder not there yet is left to the sweep, which tries again. */
  private watchDir(dir: string): void {
    if (this.dirs.has(dir) || this.stopped) return;
    try {
      const w = watchDir(
        dir,
        (_event, name) => {
          const t = name === null ? undefined : this.files.get(join(dir, name));
          if (!t) return;
          this.wake(t);
          this.followFor(t);
        },
        (e) => {
          this.log.warn(`watching ${dir} failed`, e);
          w.close();
          this.dirs.delete(dir);
        },
      );
      this.dirs.set(dir, w);
    } catch {
      // not created yet: the sweep looks again
    }
  }

  /** Stops watching a folder once none of its files is followed. */
  private unwatchDir(dir: string): void {
    for (const path of this.files.keys()) if (dirname(path) === dir) return;
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
  }

  /** A look without a read: the file grew past what is stored (or is gone while finishing). */
  private grew(t: Tracked): boolean {
    if (t.finishing) return true;
    const fd = this.openFile(t);
    return typeof fd === "number" && fstatSync(fd).size > t.offset;
  }

  /**
   * The file's fd, opened once; "absent" while it does not exist (a run that wrote nothing yet),
   * "later" when it could not be opened otherwise (out of descriptors, say): the sweep tries again,
   * and a finishing session is not ended as if it had written nothing.
   */
  private openFile(t: Tracked): number | "absent" | "later" {
    if (t.fd !== null) return t.fd;
    try {
      t.fd = openSync(t.path, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return "absent";
      if (!t.openFailed) this.log.warn(`opening ${t.path} failed; trying again`, err);
      t.openFailed = true;
      return "later";
    }
    return t.fd;
  }

  private closeFile(t: Tracked): void {
    if (t.fd === null) return;
    closeSync(t.fd);
    t.fd = null;
  }

  add(s: SessionRecord): void {
    this.refreshCap();
    for (const [stream, path, offset] of [
      ["stdout", s.stdoutPath, s.stdoutOffset],
      ["stderr", s.stderrPath, s.stderrOffset],
    ] as const) {
      const known = this.files.get(path);
      const same = known !== undefined && known.agentId === s.agentId && known.session === s.session;
      // a path followed for another agent or session (one removed, its name taken again, before its
      // end was read): that entry's fd and folder watch belong to files that are gone
      if (known && !same) this.drop(known);
      this.wake(same ? known : this.track(s, stream, path, offset));
    }
    this.sweepWhileActive();
  }

  /**
   * Forgets an agent that is being removed: its files are not read again (they are about to be
   * deleted, and its records with them: a line read from an open descriptor afterwards would be
   * refused by the store, and the batch with it, every sweep), and its sessions' ends resolve.
   */
  forgetAgent(agentId: string): void {
    for (const t of [...this.files.values()]) if (t.agentId === agentId) this.drop(t);
  }

  /** Forgets a followed file without reading it again: its fd closed, its folder watched afresh when followed next. */
  private drop(t: Tracked): void {
    this.files.delete(t.path);
    this.pending.delete(t);
    this.following.delete(t);
    this.closeFile(t);
    const dir = dirname(t.path);
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
    t.finishing?.resolve();
  }

  /**
   * Gives the store's free pages back to the file system (an agent's output was removed), a
   * pass at a time like any other maintenance, unless few are left (new output reuses them).
   */
  releaseSpace(): void {
    if (this.chunks.freeBytes() <= KEEP_FREE_BYTES) return;
    this.vacuum = true;
    this.schedule();
  }

  private sweepWhileActive(): void {
    this.lastNews = Date.now();
    if (this.sweep || this.stopped) return;
    const tick = () => {
      this.sweep = null;
      for (const t of this.files.values()) {
        this.watchDir(dirname(t.path));
        if (this.grew(t)) this.wake(t);
      }
      if (Date.now() - this.lastNews < SWEEP_FOR_MS && !this.stopped) this.sweep = setTimeout(tick, SWEEP_MS);
    };
    this.sweep = setTimeout(tick, SWEEP_MS);
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
      this.following.delete(t);
      this.wake(t);
      return t.finishing.promise;
    });
    return Promise.all(done).then(() => undefined);
  }

  private track(s: SessionRecord, stream: Stream, path: string, offset: number): Tracked {
    const t: Tracked = { agentId: s.agentId, session: s.session, stream, path, offset, released: 0, releaseTo: 0, followUntil: 0, fd: null, openFailed: false, finishing: null };
    this.files.set(path, t);
    this.watchDir(dirname(path));
    return t;
  }

  private refreshCap(): void {
    try {
      this.cap = this.capFn();
    } catch (err) {
      this.log.warn(`output cap unchanged (${this.cap} bytes)`, err);
    }
  }

  private wake(t: Tracked): void {
    this.pending.add(t);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    if (!this.pending.size && !this.overCap.size && !this.vacuum) return;
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

  private followFor(t: Tracked): void {
    if (t.finishing) return;
    t.followUntil = Date.now() + FOLLOW_FOR_MS;
    this.sweepWhileActive();
    this.following.add(t);
    if (this.followTimer || this.stopped) return;
    const tick = () => {
      this.followTimer = null;
      const now = Date.now();
      for (const f of this.following) {
        if (f.followUntil <= now || this.files.get(f.path) !== f) this.following.delete(f);
        else if (this.grew(f)) this.wake(f);
      }
      if (this.following.size && !this.stopped) this.followTimer = setTimeout(tick, FOLLOW_MS);
    };
    this.followTimer = setTimeout(tick, FOLLOW_MS);
  }

  /** One bounded step: reading, or (every other turn while due) dropping over the cap and freeing pages. */
  private pump(): void {
    this.scheduled = false;
    if (this.stopped) return;
    const maintain = (this.overCap.size > 0 || this.vacuum) && (this.maintainNext || !this.pending.size);
    this.maintainNext = !maintain;
    try {
      if (maintain) {
        this.maintainPass();
        this.wal?.wrote();
      } else this.readPass();
    } catch (err) {
      // the store refused (disk full, ...): the sweep tries again, not a hot loop
      this.log.error("storing output failed", err);
      this.pending.clear();
      this.overCap.clear();
      this.vacuum = false;
      return;
    }
    this.schedule();
  }

  private readPass(): void {
    const started = performance.now();
    const batch: Piece[] = [];
    const reached = new Map<Tracked, { offset: number; size: number; more: boolean }>();
    let budget = PASS_BYTES;
    for (const t of this.pending) {
      if (budget <= 0 || performance.now() - started > PASS_MS) break;
      this.pending.delete(t);
      const from = reached.get(t)?.offset ?? t.offset;
      const r = this.readFile(t, from, batch, Math.min(FILE_PASS_BYTES, budget));
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
        this.followFor(t);
        this.releaseStored(t);
      }
    }
    for (const chunk of chunks) {
      try {
        this.onChunk(chunk);
      } catch (err) {
        this.log.error("handling an output chunk failed", err);
      }
    }
    for (const [agentId, bytes] of stored) if (bytes > this.cap) this.overCap.add(agentId);
    if (PASS_BYTES > budget) this.wal?.wrote(PASS_BYTES - budget);
  }

  /** Reads whole-line pieces of one file into `batch`, up to `budget` bytes; null when there is no file yet. */
  private readFile(t: Tracked, from: number, batch: Piece[], budget: number): { offset: number; size: number; more: boolean } | null {
    const fd = this.openFile(t);
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

  /** The end of a finished session's file: everything is stored, so a file over the cap is emptied. */
  private finished(t: Tracked, size: number): void {
    if (this.files.get(t.path) === t) {
      this.files.delete(t.path);
      this.unwatchDir(dirname(t.path));
    }
    this.pending.delete(t);
    this.following.delete(t);
    this.closeFile(t);
    if (t.released > 0 || size > this.cap) {
      try {
        const fd = openSync(t.path, "r+");
        try {
          ftruncateSync(fd, 0);
        } finally {
          closeSync(fd);
        }
      } catch (err) {
        this.log.warn(`emptying ${t.path} failed`, err);
      }
    }
    t.finishing?.resolve();
  }

  /**
   * Frees the stored part of a raw file once it holds more than the cap, as a hole: the agent's
   * O_APPEND writes and the stored offsets are untouched, and nothing written meanwhile is lost
   * (truncating could lose what the agent wrote between the last read and the truncate).
   */
  private releaseStored(t: Tracked): void {
    if (!this.canRelease) return;
    if (t.releaseTo <= t.released) {
      if (t.offset - t.released < this.cap) return;
      t.releaseTo = Math.floor(t.offset / BLOCK) * BLOCK;
    }
    // a pass at a time: freeing 256 MiB of blocks at once held the loop for ~60 ms
    const to = Math.min(t.releaseTo, t.released + RELEASE_BYTES);
    let ok: boolean;
    try {
      ok = punchHole(t.path, t.released, to);
    } catch {
      return; // gone (the agent was removed)
    }
    if (ok) t.released = to;
    else {
      this.canRelease = false;
      this.log.warn(`cannot free stored output in ${t.path} (no hole punching here): raw files are emptied only when their session ends`);
    }
  }

  private maintainPass(): void {
    const [agentId] = this.overCap;
    if (agentId !== undefined) {
      const { stored } = this.chunks.usage(agentId);
      // drop a little below the cap, so a flood drops every few MiB rather than at every pass
      const slack = Math.min(this.cap / 8, 4 * 1024 * 1024);
      const left = stored > this.cap ? this.chunks.dropOldest(agentId, stored - this.cap + slack, DROP_PER_PASS, this.cap) : stored;
      if (left <= this.cap) this.overCap.delete(agentId);
      if (left < stored && this.chunks.freeBytes() > KEEP_FREE_BYTES) this.vacuum = true;
      return;
    }
    this.vacuum = this.chunks.releaseFreePages(VACUUM_PAGES_PER_PASS) > 0;
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
