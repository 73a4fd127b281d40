import { randomBytes } from "node:crypto";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Logger } from "../events/log.ts";
import { commitOf, fetchFrom, fetchedRef, hostBaseBranch, hostInitiativeBase, pushTo, refExists } from "../git/host-transfer.ts";
import type { SpawnRequest } from "../protocol/api-agents.ts";
import type { Agent } from "../protocol/entities.ts";
import type { InitiativeRecord } from "../store/initiatives.ts";
import type { TaskRecord } from "../store/tasks.ts";
import type { SpawnWork } from "../agents/files/input-folder.ts";
import type { HostPort } from "./host-port.ts";
import { resolvePrompt } from "./resolve-prompt.ts";
import type { RunOptions } from "./pool-dispatch.ts";

/** A remote run's agent name: the task's slug and a random tail, chosen at the claim so a restart finds it there by name. */
export function hostAgentName(slug: string): string {
  return `${slug.slice(0, 48).replace(/-+$/, "")}-${randomBytes(3).toString("hex")}`;
}

/**
 * A task's run on a remote host of the pool, step by step, each safe to repeat after `kill -9`:
 * its base there (the initiative branch's commit: pushed ahead of the claim by `pushBase`, else
 * pushed now as `troupe-pool/<task>`, forced: the same commit again changes nothing), its agent
 * spawned there under the name the claim recorded (a second spawn of that name is refused, and the
 * agent is then found by it, so a run starts once), its branch fetched back into
 * `refs/troupe-hosts/<host>/<branch>` for the ordered merge here. Git over OpenSSH carries the
 * code; the link carries only the requests.
 */
export class HostTasks {
  /**
   * Per host and initiative (`host\0id`): the commit that host holds as the initiative's base with
   * the tasks merged in it, and a push of it under way.
   */
  private readonly based = new Map<string, { commit: string; merged: ReadonlySet<string> }>();
  private readonly basing = new Map<string, Promise<void>>();

  constructor(private readonly d: { root: string; port: HostPort; log: Logger }) {}

  /**
   * The initiative branch's commit pushed to `hosts` as its base (`troupe-pool/base-<id>`), in the
   * background, where a host does not hold it yet: a task claimed there later whose dependencies
   * it holds starts from it without a push of its own (an exchange, not a push, between its claim
   * and its agent). `merged`: the tasks merged before the branch is read (it holds at least those).
   */
  pushBase(init: InitiativeRecord, merged: ReadonlySet<string>, hosts: string[]): void {
    void commitOf(this.d.root, `refs/heads/${init.branch}`)
      .then((commit) => {
        for (const host of hosts) {
          const key = `${host}\0${init.id}`;
          if (this.based.get(key)?.commit === commit || this.basing.has(key)) continue;
          const push = pushTo(this.d.root, this.d.port.git(host), commit, hostInitiativeBase(init.id))
            .then(() => void this.based.set(key, { commit, merged }))
            .catch((err: unknown) => this.d.log.warn(`pushing ${init.branch} to ${host} ahead of its tasks: ${errorMessage(err)}`))
            .finally(() => this.basing.delete(key));
          this.basing.set(key, push);
        }
      })
      .catch((err: unknown) => this.d.log.warn(`reading ${init.branch}: ${errorMessage(err)}`));
  }

  /**
   * The base a task's agent starts from on `host`: the commit the host holds, when it has every
   * dependency of the task merged (what else landed since is merged here as any parallel task's
   * work is); else the initiative branch as it is now, pushed for this task.
   */
  private async base(init: InitiativeRecord, host: string, task: TaskRecord): Promise<string> {
    const held = this.based.get(`${host}\0${init.id}`);
    if (held && task.dependsOn.every((id) => held.merged.has(id))) return held.commit;
    const base = hostBaseBranch(task.id);
    await pushTo(this.d.root, this.d.port.git(host), `refs/heads/${init.branch}`, base);
    return base;
  }

  /** Its base there, then its agent spawned (or, when a dead daemon spawned it, found by name); its branch there. */
  async start(init: InitiativeRecord, task: TaskRecord, work: SpawnWork, opts: RunOptions): Promise<string> {
    const host = task.host!;
    const name = task.hostAgent!;
    const req: SpawnRequest = {
      name,
      provider: opts.provider,
      command: opts.command,
      model: opts.model,
      baseRef: await this.base(init, host, task),
      worktree: true,
      // the host's own environment (its PATH, HOME, keys: `troupe proxy` gives its agents that), the person's git identity
      env: {},
      ...(opts.identity && { gitIdentity: opts.identity }),
      ...(opts.budgetUsd !== undefined && { budgetUsd: opts.budgetUsd }),
      ...(opts.expectedMs !== undefined && { expectedMs: opts.expectedMs }),
      hosted: { mode: work.mode, initiativeId: work.initiativeId, phaseId: work.phaseId, taskId: work.taskId, files: work.files },
    };
    try {
      const agent = await this.d.port.spawn(host, req);
      return agent.branch ?? this.noBranch(task);
    } catch (err) {
      // a spawn a dead daemon sent, or one whose reply was lost: the name is taken by it
      if (!(err instanceof TroupeError && err.code === "conflict")) throw err;
      const again = await this.d.port.agent(host, name);
      // taken by a spawn of it there still under way (its worktree being made): asked again later
      if (!again) throw new TroupeError("timeout", `agent ${name} is still being started on ${host}`, { cause: err });
      return again.branch ?? this.noBranch(task);
    }
  }

  /** The ref its branch was fetched into here, when it was (its agent was done then); null when never. */
  async fetchedBefore(task: TaskRecord): Promise<string | null> {
    if (!task.branch) return null;
    const ref = fetchedRef(task.host!, task.branch);
    return (await refExists(this.d.root, ref)) ? ref : null;
  }

  /** The task's branch fetched from its host; the ref to merge here. */
  async fetch(task: TaskRecord): Promise<string> {
    const ref = fetchedRef(task.host!, task.branch!);
    await fetchFrom(this.d.root, this.d.port.git(task.host!), task.branch!, ref);
    return ref;
  }

  /** Its agent there resumed to merge the initiative branch as it is now (pushed as its base again) and resolve `files`. */
  async resolve(init: InitiativeRecord, task: TaskRecord, files: string[]): Promise<Agent> {
    const base = hostBaseBranch(task.id);
    await pushTo(this.d.root, this.d.port.git(task.host!), `refs/heads/${init.branch}`, base);
    return this.d.port.resume(task.host!, task.hostAgent!, resolvePrompt(base, task.branch ?? "your branch", files));
  }

  private noBranch(task: TaskRecord): never {
    throw new TroupeError("internal", `agent ${task.hostAgent} on ${task.host} has no branch: a task's run there needs a worktree`);
  }
}
