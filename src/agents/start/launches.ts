import type { Agent } from "../../protocol/entities.ts";
import { sleep } from "../../runtime/process.ts";

/**
 * The launches under way (spawns, resumes, retries, attaches: a stopping daemon waits for them,
 * a process must not start unrecorded) and the agents whose resume is one of them.
 */
export class Launches {
  private readonly pending = new Set<Promise<unknown>>();
  /** Agents whose resume is under way (see resumeOf). */
  private readonly resuming = new Set<string>();

  /** Runs `launch` as one tracked launch, so that settled() can wait for it. */
  track<T>(launch: Promise<T>): Promise<T> {
    this.pending.add(launch);
    return launch.finally(() => this.pending.delete(launch));
  }

  /** A tracked resume of `agentId`, which counts as under way until it settles. */
  resumeOf(agentId: string, start: () => Promise<Agent>): Promise<Agent> {
    this.resuming.add(agentId);
    return this.track(start()).finally(() => this.resuming.delete(agentId));
  }

  isResuming(agentId: string): boolean {
    return this.resuming.has(agentId);
  }

  /** Waits for the launches under way to settle, at most `ms`. */
  async settled(ms: number): Promise<void> {
    await Promise.race([Promise.allSettled(this.pending), sleep(ms)]);
  }
}
