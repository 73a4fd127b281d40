import type { Database } from "../runtime/sqlite.ts";
import type { Checkpointer, CheckpointResult } from "../runtime/checkpointer.ts";

/** Output stored since the last checkpoint that starts the next one at once. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;
/**
 * Smaller writes (an event, an agent update, a trickle of output) are checkpointed this long after
 * the first of them. Each checkpoint syncs the database file; every 500 ms it was a tail of the
 * requests that came meanwhile (ask → answer p99 5.4 ms against 3.3 at 5 s, same run, under
 * `chrt`) and two fsyncs a second under a trickle of output. The WAL holds a few MiB of frames
 * by then, far under CATCH_UP_FRAMES.
 */
const SOON_MS = 2_000;
/**
 * A WAL longer than this (in frames, ~4 KiB each) that was written to while it was checkpointed
 * is copied again at once while output waits: only a checkpoint that leaves nothing behind lets
 * the next write start the WAL over, so it stays about this size instead of growing with every
 * byte of a flood.
 */
const CATCH_UP_FRAMES = 4096;
/** A reader holding an old snapshot keeps a checkpoint from finishing: give up catching up after this many tries. */
const CATCH_UP_TRIES = 4;
/** And a truncating one (after `troupe rm`) from emptying the WAL: tries, a little longer apart each. */
const TRUNCATE_TRIES = 10;

/**
 * Decides when the store's WAL is copied into the database, and runs those checkpoints on a
 * worker thread with its own connection (src/runtime/checkpointer.ts), so the copying and
 * syncing (100–170 ms for a few MiB on a busy machine) never holds the daemon's event loop.
 * SQLite's automatic checkpoint is off: it would run inside whichever commit crossed its
 * threshold, an API request among them. Writes say so (`wrote`); nothing runs while nothing is
 * written, so an idle daemon has no checkpoint timer. Without a worker (an in-memory store, or
 * one that failed) the same checkpoints run inline, with SQLite's own as a cap.
 */
export class WalCheckpoints {
  private pendingBytes = 0;
  private dirty = false;
  private active = false;
  private running = false;
  private catchingUp = false;
  private tries = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly released = new Set<() => void>();

  constructor(
    private readonly db: Database,
    private worker: Checkpointer | null,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Something was written: `bytes` of output (which starts a checkpoint once it adds up), or a small write. */
  wrote(bytes = 0): void {
    if (this.stopped) return;
    // from the first write it is told of on, this is what checkpoints (a store nobody tells keeps SQLite's)
    if (!this.active && this.worker) this.db.exec("PRAGMA wal_autocheckpoint = 0");
    this.active = true;
    this.dirty = true;
    this.pendingBytes += bytes;
    if (this.running) return; // looked at again when it ends
    if (this.pendingBytes >= CHECKPOINT_BYTES) this.run();
    else this.timer ??= setTimeout(() => {
      this.timer = null;
      if (!this.running) this.run();
    }, SOON_MS);
  }

  /**
   * Copies the whole WAL into the database and empties the file (TRUNCATE), so nothing deleted
   * before (a removed agent's output, its prompt, its result) can be read back from old WAL
   * frames; secure_delete already left zeros in the database file where it was. Runs on this
   * thread once no checkpoint of the worker's is under way, and is tried again while a reader
   * holds an older snapshot. False when it could not finish (the next one will).
   */
  async truncate(): Promise<boolean> {
    for (let i = 0; i < TRUNCATE_TRIES && !this.stopped; i++) {
      while (this.running && !this.stopped) await new Promise((r) => setTimeout(r, 10));
      if (this.stopped) return false;
      const r = this.db.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
      if (r.busy === 0) return true;
      await new Promise((r) => setTimeout(r, 20 * (i + 1)));
    }
    return false;
  }

  /** True while a catch-up checkpoint runs: the writer of output holds its writes until `onRelease`. */
  get holding(): boolean {
    return this.catchingUp;
  }

  /** Called once, when holding ends. */
  onRelease(fn: () => void): void {
    if (!this.catchingUp) return fn();
    this.released.add(fn);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.worker?.close();
    this.release();
  }

  private run(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pendingBytes = 0;
    this.dirty = false;
    this.running = true;
    if (!this.worker) {
      let r: CheckpointResult | null = null;
      try {
        r = this.inline();
      } catch (err) {
        this.onError(err);
      }
      return this.ended(r);
    }
    this.worker.checkpoint().then(
      (r) => this.ended(r),
      (err: unknown) => {
        if (this.stopped) return;
        // a worker that fails once is not trusted again: the same checkpoints, inline
        this.onError(err);
        this.worker?.close();
        this.worker = null;
        this.db.exec("PRAGMA wal_autocheckpoint = 4096");
        this.ended(null);
      },
    );
  }

  private inline(): CheckpointResult {
    const r = this.db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { busy: number; log: number; checkpointed: number };
    return { busy: r.busy !== 0, log: r.log, checkpointed: r.checkpointed };
  }

  private ended(r: CheckpointResult | null): void {
    this.running = false;
    if (this.stopped) return;
    // a checkpoint copies what the WAL held when it began: anything written since keeps the WAL
    // from starting over, and it grows on; once long, the next copy runs with output held
    const behind = r !== null && r.log > CATCH_UP_FRAMES && (this.dirty || r.checkpointed < r.log);
    // again while behind: small writes (the API's) may have come in between, the next copy is shorter
    if (behind && (!this.catchingUp || ++this.tries < CATCH_UP_TRIES)) {
      if (!this.catchingUp) this.tries = 0;
      this.catchingUp = true;
      return this.run();
    }
    this.release();
    if (this.pendingBytes >= CHECKPOINT_BYTES) this.run();
    else if (this.dirty) this.wrote();
  }

  private release(): void {
    this.catchingUp = false;
    const fns = [...this.released];
    this.released.clear();
    for (const fn of fns) fn();
  }
}
