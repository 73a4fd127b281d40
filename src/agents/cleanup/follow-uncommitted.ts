import { existsSync } from "node:fs";
import type { Agent } from "../../protocol/entities.ts";
import type { Store } from "../../store/index.ts";
import type { EventBus } from "../../events/bus.ts";
import type { EndedRun } from "../lifecycle/run-ends.ts";
import type { Logger } from "../../events/log.ts";
import { toAgent } from "../../store/agents.ts";
import { isLive } from "../../protocol/status.ts";
import { dirtyPaths } from "../../git/status.ts";
import { commitPrompt } from "./commit-prompt.ts";

/** What this follower uses of the agents: the resume use case (src/agents/use-cases/resume.ts). */
export interface CommitResumer {
  canResume(ref: string): boolean;
  resumeWith(ref: string, prompt: string): Promise<Agent>;
  troupeCommand(): string;
}

/**
 * An agent that ends `done` with uncommitted changes in its worktree is resumed once and asked to
 * commit exactly those paths; if its worktree is still dirty when that session ends (or it cannot
 * be resumed), it is flagged `uncommitted`, which keeps its worktree from every cleanup. A later
 * clean end clears the flag. A step of the end-of-run sequence (src/services/end-of-run.ts).
 */
export class UncommittedFollower {
  private following = false;
  /** Checks under way, so shutdown can let them finish. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly d: { store: Store; bus: EventBus; log: Logger; agents: CommitResumer }) {}

  start(): void {
    this.following = true;
  }

  async shutdown(): Promise<void> {
    this.following = false;
    await Promise.allSettled(this.pending);
  }

  /** A run is over: a `done` agent's worktree is checked for uncommitted changes (in the background). */
  runEnded({ agent, session }: EndedRun): void {
    if (!this.following || agent.status !== "done" || !agent.worktree) return;
    const check = this.check(agent, session).catch((err) => this.d.log.warn(`checking ${agent.name}'s worktree for uncommitted changes`, err));
    this.pending.add(check);
    void check.finally(() => this.pending.delete(check));
  }

  private async check(agent: Agent, session: number): Promise<void> {
    const { store, log, agents } = this.d;
    if (!existsSync(agent.worktree!)) return;
    const dirty = await dirtyPaths(agent.worktree!);
    const now = store.agents.get(agent.id);
    // gone, or resumed meanwhile (a question woke it): its next end is checked again
    if (!now || now.session !== session || now.status !== "done") return;
    if (!dirty.length) {
      if (now.uncommitted) this.flag(agent.id, false);
      return;
    }
    if (store.agents.commitAskedSession(agent.id) === session || !agents.canResume(agent.id)) {
      log.warn(`${agent.name} left uncommitted changes (${dirty.join(", ")}); its worktree is kept`);
      this.flag(agent.id, true);
      return;
    }
    try {
      const resumed = await agents.resumeWith(agent.id, commitPrompt(agents.troupeCommand(), dirty));
      store.agents.setCommitAskedSession(agent.id, resumed.session);
      log.info(`${agent.name} ended with uncommitted changes; resumed once to commit ${dirty.length} path(s)`);
    } catch (err) {
      const after = store.agents.get(agent.id);
      if (after && isLive(after.status)) return; // another resume won the race; its end is checked
      log.warn(`could not resume ${agent.name} to commit its changes`, err);
      this.flag(agent.id, true);
    }
  }

  private flag(id: string, uncommitted: boolean): void {
    const updated = this.d.store.agents.update(id, { uncommitted });
    this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
  }
}
