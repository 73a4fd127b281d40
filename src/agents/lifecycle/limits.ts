import type { AgentRecord, SessionRecord, Store } from "../../store/index.ts";
import type { Diagnosis } from "./diagnose.ts";
import type { LifecycleSettings } from "./settings.ts";
import { DeadlineTimer } from "./deadline-timer.ts";
import { isLive } from "../../protocol/status.ts";

export interface LimitsDeps {
  store: Store;
  settings(): LifecycleSettings;
  /** In `listen`, or waiting for an answer: the inactivity clock stops meanwhile. */
  waitsOnPurpose(agentId: string): boolean;
  /** Writes agents' last-activity times that wait in memory (read here from the store). */
  flushActivity(): void;
  /** Stops the agent's run, failing it with `why`. */
  stop(agentId: string, why: Diagnosis): void;
  onError(err: unknown): void;
}

interface Deadline {
  at: number;
  kind: "wall" | "idle";
  limitMs: number;
}

const minutes = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round((ms / 60_000) * 10) / 10} min`);

/**
 * Per-run limits: a wall-clock limit from the run's start and an inactivity limit from its last
 * output; past either the run is stopped (the stopper: SIGTERM, SIGKILL at a deadline) and fails
 * with class `timeout`. One timer at the nearest deadline; output does not touch it: when it
 * fires, a run that has spoken since gets a later deadline. While the agent waits on purpose its
 * inactivity clock starts again from the moment the timer found it waiting.
 */
export class RunLimits {
  private readonly timer: DeadlineTimer;
  /** When a run was last seen waiting on purpose: its idle clock counts from there. */
  private readonly waitedAt = new Map<string, number>();

  constructor(private readonly d: LimitsDeps) {
    this.timer = new DeadlineTimer(() => this.nearest(), (now) => this.due(now), d.onError);
  }

  schedule(): void {
    this.timer.schedule();
  }

  /**
   * A run started being followed: only its own deadline can come before the timer. Re-reading
   * every live run's here made each spawn cost a store read per live agent.
   */
  followed(sess: SessionRecord): void {
    const rec = this.d.store.agents.get(sess.agentId);
    const deadline = rec ? this.deadlineOf(sess, rec, this.d.settings()) : null;
    if (deadline) this.timer.add(deadline.at);
  }

  shutdown(): void {
    this.timer.shutdown();
  }

  private deadlines(): { agentId: string; deadline: Deadline }[] {
    // an inactivity deadline counts from the last output, some of which may not be written yet
    this.d.flushActivity();
    const s = this.d.settings();
    const out: { agentId: string; deadline: Deadline }[] = [];
    for (const sess of this.d.store.sessions.open()) {
      const rec = this.d.store.agents.get(sess.agentId);
      const deadline = rec ? this.deadlineOf(sess, rec, s) : null;
      if (deadline) out.push({ agentId: sess.agentId, deadline });
    }
    return out;
  }

  /** The run's nearest limit, or null when it has none or is not a live run of its agent. */
  private deadlineOf(sess: SessionRecord, rec: AgentRecord, s: LifecycleSettings): Deadline | null {
    // `starting` too: a run is followed before it is marked running
    if (rec.session !== sess.session || !isLive(rec.status)) return null;
    // the person's interactive CLI is theirs to end: no run limit applies to it
    if (rec.status === "attached") return null;
    // already being stopped for a limit
    if (rec.failure && rec.failure.attempt === rec.attempt && (rec.failure.class === "timeout" || rec.failure.class === "budget")) return null;
    const wall = rec.timeoutMs ?? s.timeoutMs;
    const idle = rec.idleTimeoutMs ?? s.idleTimeoutMs;
    const candidates: Deadline[] = [];
    if (wall) candidates.push({ at: sess.startedAt + wall, kind: "wall", limitMs: wall });
    if (idle) {
      const from = Math.max(sess.startedAt, rec.lastActivityAt ?? 0, this.waitedAt.get(rec.id) ?? 0);
      candidates.push({ at: from + idle, kind: "idle", limitMs: idle });
    }
    return candidates.sort((a, b) => a.at - b.at)[0] ?? null;
  }

  private nearest(): number | null {
    const all = this.deadlines().map((x) => x.deadline.at);
    return all.length ? Math.min(...all) : null;
  }

  private due(now: number): void {
    for (const { agentId, deadline } of this.deadlines()) {
      if (deadline.at > now) continue;
      if (deadline.kind === "idle" && this.d.waitsOnPurpose(agentId)) {
        this.waitedAt.set(agentId, now);
        continue;
      }
      this.waitedAt.delete(agentId);
      const evidence = deadline.kind === "wall" ? `ran longer than its limit of ${minutes(deadline.limitMs)}` : `no output for ${minutes(deadline.limitMs)}`;
      this.d.stop(agentId, { failure: "timeout", evidence });
    }
  }
}
