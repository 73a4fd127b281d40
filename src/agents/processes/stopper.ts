import { constants } from "node:os";
import type { AgentDeps } from "../deps.ts";
import { sleep } from "../../runtime/process.ts";
import { findProcesses, nothingFound, signalAll, type FoundProcesses } from "./find.ts";
import { isProcessAlive } from "../../process-info.ts";

/** How long a stopped agent has between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 5_000;
/** After a SIGKILL, when to look again (for what was forked meanwhile, or has not died yet). */
const RECHECK_MS = 1_000;
/** SIGKILL rounds before the daemon gives up on a process that will not die (stuck in the kernel). */
const MAX_KILL_ROUNDS = 10;

/**
 * Stops that finish: SIGTERM to every process of the agent now, SIGKILL at a deadline kept in the
 * store (`agent_sessions.kill_at`), so a daemon that stops or dies meanwhile leaves the kill to
 * the next one, which picks it up at start. Processes are found at the stop, at a deadline and at
 * start only: nothing scans /proc while nothing is stopping.
 */
export class Stopper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly rounds = new Map<string, number>();

  constructor(private readonly d: Pick<AgentDeps, "store" | "log">) {}

  /** Finishes the stops an earlier daemon left under way: the overdue ones at once. */
  start(): void {
    this.schedule();
  }

  shutdown(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Every live process of the agent, over all its sessions. */
  find(agentId: string): FoundProcesses {
    const sessions = this.d.store.sessions.ofAgent(agentId);
    const markers = sessions.flatMap((s) => (s.marker ? [s.marker] : []));
    // a group id is the agent's only while the group lives on from its session: once the daemon
    // saw it end, with no stop under way, the pid may since lead someone else's group
    const groups = sessions.flatMap((s) => (s.pid !== null && (s.endedAt === null || s.killAt !== null) ? [s.pid] : []));
    const found = findProcesses({ markers, groups });
    // an open session's own process, by pid: an attached session's CLI leads no group of its own
    // (it is in the person's shell job), and its environment may no longer show the marker
    const own = sessions.flatMap((s) => (s.pid !== null && s.endedAt === null && !found.pids.includes(s.pid) && isProcessAlive(s.pid, s.pidStart) ? [s.pid] : []));
    return own.length ? { ...found, pids: [...found.pids, ...own] } : found;
  }

  /**
   * SIGTERM to whatever of the agent lives and a SIGKILL deadline in the store; `record` (the
   * status change) is written in the same transaction as the deadline. False when nothing lived.
   */
  terminate(agentId: string, session: number, record: () => void): boolean {
    const found = this.find(agentId);
    const alive = !nothingFound(found);
    this.d.store.db.transaction(() => {
      record();
      if (alive && session > 0) this.d.store.sessions.requestKill(agentId, session, Date.now() + KILL_GRACE_MS, constants.signals.SIGTERM);
    })();
    if (!alive) return false;
    signalAll(found, "SIGTERM");
    this.schedule();
    return true;
  }

  /** Waits until nothing of the agent lives, up to `timeoutMs`; returns what still does. */
  async waitGone(agentId: string, timeoutMs: number): Promise<FoundProcesses> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.find(agentId);
      if (nothingFound(found) || Date.now() >= deadline) return found;
      await sleep(100);
    }
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.d.store.sessions.nextKillAt();
    if (next === null) return;
    this.timer = setTimeout(() => this.due(), Math.max(0, next - Date.now()));
  }

  private due(): void {
    this.timer = null;
    if (this.closed) return;
    const { sessions } = this.d.store;
    const now = Date.now();
    try {
      for (const agentId of sessions.killDue(now)) {
        const found = this.find(agentId);
        const round = (this.rounds.get(agentId) ?? 0) + 1;
        if (nothingFound(found) || round > MAX_KILL_ROUNDS) {
          if (!nothingFound(found)) this.d.log.warn(`agent ${agentId}: pids ${found.pids.join(", ")} survive SIGKILL; giving up`);
          sessions.setKillAt(agentId, null);
          this.rounds.delete(agentId);
          continue;
        }
        signalAll(found, "SIGKILL");
        this.d.log.info(`agent ${agentId}: SIGKILL to pids ${found.pids.join(", ")} at the stop's deadline`);
        this.rounds.set(agentId, round);
        sessions.setKillAt(agentId, now + RECHECK_MS);
      }
    } catch (err) {
      this.d.log.error("killing stopped agents", err);
    }
    this.schedule();
  }
}
