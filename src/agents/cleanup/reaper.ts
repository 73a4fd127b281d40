import { collectGarbage, nextReapAt, type GcDeps } from "./gc.ts";

/** At most this long between looks, so a changed `worktree.keepDays` is seen within a day. */
const MAX_WAIT_MS = 86_400_000;

/**
 * Removes finished agents' worktrees once they are clean and idle past `worktree.keepDays`: one
 * timer at the nearest such deadline (at most a day away), not polling; re-armed when an agent's
 * run ends (a step of the end-of-run sequence). A worktree that is dirty at its deadline stays
 * (gc reports why).
 */
export class WorktreeReaper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private at: number | null = null;
  private started = false;
  private running: Promise<unknown> | null = null;
  private lastLook = 0;

  constructor(private readonly d: GcDeps) {}

  start(): void {
    this.started = true;
    this.run();
  }

  /** A run is over: its worktree's deadline may be the nearest now. */
  runEnded(): void {
    this.arm();
  }

  async shutdown(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private run(): void {
    if (this.running) return;
    this.lastLook = Date.now();
    this.running = collectGarbage(this.d, false)
      .catch((err) => this.d.log.warn("reaping idle worktrees failed", err))
      .finally(() => {
        this.running = null;
        this.at = null;
        this.arm();
      });
  }

  /** Arms the timer at the nearest deadline, unless one as near is armed. */
  private arm(): void {
    if (!this.started) return;
    const next = nextReapAt(this.d, this.lastLook);
    if (next === null) return;
    const at = Math.min(next, Date.now() + MAX_WAIT_MS);
    if (this.at !== null && this.at <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, Math.max(0, at - Date.now()));
    this.timer.unref?.();
  }
}
