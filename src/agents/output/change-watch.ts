import { dirname, join } from "node:path";
import type { Logger } from "../../events/log.ts";
import { watchDir, type DirWatcher } from "../../runtime/watch.ts";
import type { TailedFile } from "./tailed-file.ts";

/**
 * inotify can coalesce events (and a folder that did not exist yet could not be watched): a sweep
 * looks at every file's size now and then, but only while output comes in (until SWEEP_FOR_MS
 * after the last news), so an idle daemon has no timer. A stat per file, no read unless it grew.
 */
const SWEEP_MS = 2_000;
const SWEEP_FOR_MS = 10_000;
/**
 * Bun's fs.watch drops the last of a quick run of changes (measured: writes 1 ms apart, no event
 * after the final one), so a file that had news is looked at again every FOLLOW_MS until a look
 * FOLLOW_FOR_MS or more after the last news finds nothing new (one or two looks; each look that
 * finds more starts over): output written in a burst is seen within ~15 ms, not at the next
 * sweep. A look is a stat; only a file that grew is read. Quiet files cost no timer. (Looking for
 * 60 ms was four stats per line with 200 agents writing a line a second each.)
 */
const FOLLOW_MS = 15;
const FOLLOW_FOR_MS = 15;

/** The tailer, as the change watch sees it: the files it follows, and how to look at and wake one. */
export interface WatchedFiles {
  at(path: string): TailedFile | undefined;
  all(): Iterable<TailedFile>;
  /** The file grew past what is stored (see tailed-file.ts). */
  grew(t: TailedFile): boolean;
  /** Queue the file for the next read pass. */
  wake(t: TailedFile): void;
}

/**
 * Notices that followed files changed: one inotify watch per session folder (the runtime's watchDir;
 * chokidar, used before, re-read the whole folder and stat'ed the file on every write, several
 * times the cost of storing the line), a file with news looked at again for a short while, and a
 * sweep over every file while output comes in.
 */
export class ChangeWatch {
  private readonly dirs = new Map<string, DirWatcher>();
  private readonly following = new Set<TailedFile>();
  private sweep: ReturnType<typeof setTimeout> | null = null;
  private followTimer: ReturnType<typeof setTimeout> | null = null;
  private lastNews = 0;
  private stopped = false;

  constructor(
    private readonly files: WatchedFiles,
    private readonly log: Logger,
  ) {}

  stop(): void {
    this.stopped = true;
    if (this.sweep) clearTimeout(this.sweep);
    if (this.followTimer) clearTimeout(this.followTimer);
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }

  /** Watches the folder of a followed file (once); a folder not there yet is left to the sweep, which tries again. */
  watchDir(dir: string): void {
    if (this.dirs.has(dir) || this.stopped) return;
    try {
      const w = watchDir(
        dir,
        (_event, name) => {
          const t = name === null ? undefined : this.files.at(join(dir, name));
          if (!t) return;
          this.files.wake(t);
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
  unwatchDir(dir: string): void {
    for (const t of this.files.all()) if (dirname(t.path) === dir) return;
    this.forgetDir(dir);
  }

  /** Stops watching a folder now (its files are gone): watched afresh when one is followed next. */
  forgetDir(dir: string): void {
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
  }

  /** The file is no longer looked at after news (its session is finishing, or it is dropped). */
  unfollow(t: TailedFile): void {
    this.following.delete(t);
  }

  /** Output came in: every file is swept now and then until SWEEP_FOR_MS pass without news. */
  sweepWhileActive(): void {
    this.lastNews = Date.now();
    if (this.sweep || this.stopped) return;
    const tick = () => {
      this.sweep = null;
      for (const t of this.files.all()) {
        this.watchDir(dirname(t.path));
        if (this.files.grew(t)) this.files.wake(t);
      }
      if (Date.now() - this.lastNews < SWEEP_FOR_MS && !this.stopped) this.sweep = setTimeout(tick, SWEEP_MS);
    };
    this.sweep = setTimeout(tick, SWEEP_MS);
  }

  /** The file had news: looked at again every FOLLOW_MS until FOLLOW_FOR_MS pass with nothing new. */
  followFor(t: TailedFile): void {
    if (t.finishing) return;
    t.followUntil = Date.now() + FOLLOW_FOR_MS;
    this.sweepWhileActive();
    this.following.add(t);
    if (this.followTimer || this.stopped) return;
    const tick = () => {
      this.followTimer = null;
      const now = Date.now();
      for (const f of this.following) {
        // looked at once more however late the timer fired: only a look that finds nothing ends the follow
        if (this.files.at(f.path) === f && this.files.grew(f)) this.files.wake(f);
        else if (f.followUntil <= now || this.files.at(f.path) !== f) this.following.delete(f);
      }
      if (this.following.size && !this.stopped) this.followTimer = setTimeout(tick, FOLLOW_MS);
    };
    this.followTimer = setTimeout(tick, FOLLOW_MS);
  }
}
