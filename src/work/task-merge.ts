import { existsSync } from "node:fs";
import { errorMessage } from "../errors.ts";
import type { Logger } from "../events/log.ts";
import { InitiativeMerger, type GitIdentity, type MergeOutcome } from "../git/merge.ts";
import { dirtyPaths } from "../git/status.ts";
import type { Agent } from "../protocol/entities.ts";
import type { Store } from "../store/index.ts";
import type { InitiativeRecord } from "../store/initiatives.ts";
import type { TaskRecord } from "../store/tasks.ts";
import { onRemote, type AgentView } from "./dispatch-plan.ts";
import { resolvePrompt } from "./resolve-prompt.ts";
import type { StatusWrites } from "./status-writes.ts";

/** Resumes an agent with a prompt, with its saved environment: the resume use case (src/agents/use-cases/resume.ts). */
export interface Resumer {
  resumeWith(ref: string, prompt: string): Promise<Agent>;
}

/**
 * A finished task into its initiative branch (src/git/merge.ts does the git): completed when it
 * merged (or was in already), its agent resumed once to resolve a conflict, blocked when it
 * still conflicts. The caller runs one at a time.
 */
export class TaskMerges {
  /** One merge worktree per initiative, prepared once per daemon. */
  private readonly mergers = new Map<string, InitiativeMerger>();

  constructor(
    private readonly d: {
      root: string;
      store: Store;
      log: Logger;
      agents: Resumer;
      writes: StatusWrites;
      /** A remote task's agent, resumed on its host to resolve a conflict (src/work/host-tasks.ts). */
      resolveOnHost(init: InitiativeRecord, task: TaskRecord, files: string[]): Promise<void>;
    },
  ) {}

  /** Forgets the initiative's merger and hands it over, for its worktree to be removed. */
  take(init: InitiativeRecord): InitiativeMerger {
    const m = this.merger(init);
    this.mergers.delete(init.id);
    return m;
  }

  has(initiativeId: string): boolean {
    return this.mergers.has(initiativeId);
  }

  private merger(init: InitiativeRecord): InitiativeMerger {
    let m = this.mergers.get(init.id);
    if (!m) this.mergers.set(init.id, (m = new InitiativeMerger(this.d.root, init.slug, init.branch)));
    return m;
  }

  /** What the agent left uncommitted in its worktree; asked of every finished task at once, before the merges one by one. */
  async dirty(agentId: string): Promise<string[]> {
    const rec = this.d.store.agents.get(agentId);
    return rec?.worktree && existsSync(rec.worktree) ? dirtyPaths(rec.worktree) : [];
  }

  /** `dirtyNow`: `dirty(agent)` started earlier; asked here when not. `source`: what to merge when not the task's branch here (a remote task's, fetched). */
  async merge(init: InitiativeRecord, identity: GitIdentity, task: TaskRecord, agent: AgentView, dirtyNow?: Promise<string[]>, source?: string): Promise<void> {
    const { writes } = this.d;
    const rec = this.d.store.agents.get(agent.id);
    const branch = task.branch ?? rec?.branch ?? null;
    if (!branch) {
      writes.task(task, { status: "failed", reason: `agent ${agent.name} worked without a branch: nothing to merge` });
      return;
    }
    // its run is over only once what it left uncommitted is dealt with: the uncommitted follower
    // (src/agents/cleanup/) resumes it once to commit, or flags it; either wakes dispatch again
    const dirty = await (dirtyNow ?? this.dirty(agent.id));
    if (dirty.length) {
      if (rec!.uncommitted) {
        writes.task(task, { status: "blocked", reason: `agent ${agent.name} left uncommitted changes in ${dirty.join(", ")} (${rec!.worktree}); nothing of it was merged` });
      }
      return;
    }
    const phase = this.d.store.phases.get(task.phaseId);
    const where = onRemote(task) ? ` on ${task.host}` : "";
    const message = `Merge task ${phase?.slug ?? "?"}/${task.slug}: ${task.title}\n\nBranch ${branch}, agent ${agent.name} (${agent.id})${where}, task ${task.id}.`;
    let outcome: MergeOutcome;
    try {
      outcome = await this.merger(init).merge(source ?? branch, identity, message);
    } catch (err) {
      this.d.log.error(`merging ${branch} into ${init.branch}`, err);
      writes.task(task, { status: "blocked", reason: errorMessage(err) });
      return;
    }
    if (outcome.kind !== "conflict") {
      writes.task(task, { status: "completed", mergedAt: Date.now(), mergeCommit: outcome.commit, summary: rec?.result ?? agent.result ?? task.summary, conflicts: null, reason: null, resolveSession: null });
      return;
    }
    const files = outcome.files;
    if (task.resolveSession === null) {
      // recorded before the resume starts: a daemon killed in between starts it, never twice
      const marked = writes.task(task, { conflicts: files, resolveSession: agent.session + 1, reason: `merging into ${init.branch} conflicts in ${files.join(", ")}: agent ${agent.name} is resolving it` });
      await this.resolve(init, marked, agent.id, files);
      return;
    }
    writes.task(task, {
      status: "blocked",
      conflicts: files,
      resolveSession: null,
      reason: `merging ${branch} into ${init.branch} still conflicts in ${files.join(", ")} after agent ${agent.name} tried to resolve it; both branches are intact`,
    });
  }

  /** The task's agent, resumed in its own worktree to merge the initiative branch and resolve `files`. */
  async resolve(init: InitiativeRecord, task: TaskRecord, agentId: string, files: string[]): Promise<void> {
    try {
      if (onRemote(task)) await this.d.resolveOnHost(init, task, files);
      else await this.d.agents.resumeWith(agentId, resolvePrompt(init.branch, task.branch ?? "your branch", files));
    } catch (err) {
      this.d.writes.task(task, { status: "blocked", conflicts: files, resolveSession: null, reason: `merging into ${init.branch} conflicts in ${files.join(", ")}, and its agent could not be resumed to resolve it: ${errorMessage(err)}` });
    }
  }
}
