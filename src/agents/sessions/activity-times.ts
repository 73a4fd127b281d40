import type { Logger } from "../../events/log.ts";

/**
 * How long an agent's last-activity time may wait in memory before it is written. A daemon killed
 * with `kill -9` loses at most this much of it (as when each agent's time was written at most every
 * 2 s, each its own commit); `flush` writes it at once for a reader that decides on it.
 */
export const ACTIVITY_FLUSH_MS = 2_000;

/** Where the times go: one transaction for all of them (AgentRepo.touch). */
export type WriteTimes = (times: ReadonlyMap<string, number>) => void;

/**
 * Agents' last-activity times as output comes in, written to the store together, one transaction
 * per ACTIVITY_FLUSH_MS for every agent that spoke meanwhile, instead of a commit per agent per
 * line (with 200 agents writing a line a second, that was a hundred commits a second). A timer
 * runs only while a time waits, so an idle daemon has none.
 */
export class ActivityTimes {
  private readonly pending = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly write: WriteTimes,
    private readonly log: Logger,
  ) {}

  /** The agent was active at `at`: written within ACTIVITY_FLUSH_MS. */
  note(agentId: string, at: number): void {
    this.pending.set(agentId, at);
    this.arm();
  }

  /** The agent's time was written by other means (an update carrying it), or it is being removed. */
  forget(agentId: string): void {
    this.pending.delete(agentId);
  }

  /** Writes every waiting time now (before a reader decides on them, and at shutdown). */
  flush(): void {
    if (!this.pending.size) return;
    const times = new Map(this.pending);
    this.pending.clear();
    try {
      this.write(times);
    } catch (err) {
      // the store refused (disk full, ...): kept for the next flush unless newer ones came
      for (const [id, at] of times) if (!this.pending.has(id)) this.pending.set(id, at);
      this.log.error("writing agents' last activity failed", err);
      this.arm();
    }
  }

  private arm(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, ACTIVITY_FLUSH_MS);
  }

  /** Writes what waits and arms no timer again. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flush();
  }
}
