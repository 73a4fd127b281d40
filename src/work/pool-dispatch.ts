import { TroupeError, errorMessage } from "../errors.ts";
import type { Logger } from "../events/log.ts";
import { LOCAL_HOST } from "../protocol/host.ts";
import type { Store } from "../store/index.ts";
import type { InitiativeRecord } from "../store/initiatives.ts";
import type { TaskRecord } from "../store/tasks.ts";
import type { SpawnWork } from "../agents/files/input-folder.ts";
import type { AgentView, SettleStep } from "./dispatch-plan.ts";
import { onRemote, runOver } from "./dispatch-plan.ts";
import type { HostPort } from "./host-port.ts";
import type { ModeRunOptions } from "./modes.ts";
import { HostTasks } from "./host-tasks.ts";
import type { HostSlots } from "./placement.ts";
import { PoolWatch, type Watched } from "./pool-watch.ts";
import type { StatusWrites } from "./status-writes.ts";

/** A host that answered but whose start failed is tried again after this long. */
const RETRY_MS = 5_000;
/** How long a remote task's host may stay silent before the task is placed again (`dispatch.hostGraceSeconds`). */
const DEFAULT_HOST_GRACE_S = 120;
/** Errors that say nothing of whether the host got the request: the start is tried again (up to TRIES times while the host answers). */
const TRANSIENT = new Set(["remote_unreachable", "daemon_unavailable", "timeout", "internal"]);
/** Starts tried on a host that answers before the task fails with the last error (a minute at RETRY_MS). */
const TRIES = 12;
/** How long a lost run is followed for its end (its host may never come back). */
const FOLLOW_LOST_MS = 24 * 3600_000;

/** A run's options (a mode run's), and who the person who dispatched is: their commits' author on a host. */
export type RunOptions = ModeRunOptions & { identity?: { name: string; email: string } };

export interface PoolDispatchDeps {
  root: string;
  store: Store;
  log: Logger;
  writes: StatusWrites;
  port: HostPort;
  /** What a run of the task gets when a host runs it (ModeService.hosted). */
  hosted(taskId: string): SpawnWork;
  /** Whether anything is dispatched (the watch sleeps otherwise). */
  active(): boolean;
  /** News of the pool: a pass reads it. */
  news(): void;
  graceSeconds(): number | undefined;
  timeoutMs: number;
}

/**
 * Dispatch's side of the workspace's pool of hosts (docs/remotes.md, "Hosts as a pool"): what
 * placement reads of each host (its slots in use by every initiative's tasks), what a pass reads of
 * a remote task (its agent there, whether its host is lost), and the acts on a remote task the
 * dispatcher calls: its start (HostTasks), started again after a start cut off, its fetch and its
 * lost runs' ends, recorded and never merged.
 */
export class PoolDispatch {
  private readonly watch: PoolWatch;
  readonly tasks: HostTasks;
  /** Remote starts that failed without an answer, by task id: not tried again before then; and how many times. */
  private readonly retryAt = new Map<string, number>();
  private readonly tries = new Map<string, number>();
  /** Per initiative: how many of its tasks were completed (merged) when its branch was last pushed ahead to the hosts. */
  private readonly basedAt = new Map<string, number>();

  constructor(private readonly d: PoolDispatchDeps) {
    this.tasks = new HostTasks({ root: d.root, port: d.port, log: d.log });
    this.watch = new PoolWatch({
      port: d.port,
      log: d.log,
      // something dispatched onto a pool with remotes (this machine alone needs no look), or a lost
      // run followed until it ends, its initiative done or not
      active: () => (d.active() && (this.watch.pool()?.length ?? 0) > 1) || this.watched().length > 0,
      watched: () => this.watched(),
      news: () => {
        this.recordLostOutcomes();
        d.news();
      },
      timeoutMs: d.timeoutMs,
    });
  }

  /** At a pass of `init`: the pool's first look awaited; the initiative branch pushed ahead to the remotes once a merge moved it while tasks wait. */
  async ready(init: InitiativeRecord): Promise<void> {
    await this.watch.ready();
    const pool = this.watch.pool();
    if (!pool || pool.length < 2) return;
    const tasks = this.d.store.tasks.listByInitiative(init.id);
    if (!tasks.some((t) => t.status === "pending")) return;
    const merged = new Set(tasks.filter((t) => t.status === "completed").map((t) => t.id));
    if (this.basedAt.get(init.id) === merged.size) return;
    this.basedAt.set(init.id, merged.size);
    this.tasks.pushBase(init, merged, pool.filter((h) => h.name !== LOCAL_HOST && h.reachable && h.slots > 0).map((h) => h.name));
  }

  close(): void {
    this.watch.close();
  }

  /** Every initiative's tasks. */
  private allTasks(): TaskRecord[] {
    return this.d.store.initiatives.list().flatMap((i) => this.d.store.tasks.listByInitiative(i.id));
  }

  /**
   * The remote agents dispatch follows: tasks' under way (once their start there is recorded: a
   * look before it would find no such agent yet), lost runs' not yet ended.
   */
  private watched(): Watched[] {
    return this.allTasks().flatMap((t) => [
      ...(t.status === "in_progress" && onRemote(t) && t.hostAgent && t.branch ? [{ host: t.host!, name: t.hostAgent }] : []),
      ...t.lostRuns.filter((r) => r.outcome === null && Date.now() - r.lostAt < FOLLOW_LOST_MS).map((r) => ({ host: r.host, name: r.agent })),
    ]);
  }

  /** The pool for placement, with each host's slots in use by every initiative's tasks; null without remotes. */
  slots(): HostSlots[] | null {
    const pool = this.watch.pool();
    if (!pool || pool.length < 2) return null;
    const used = new Map<string, number>();
    const agents = { agent: (id: string) => this.d.store.agents.get(id), hostAgent: (t: TaskRecord) => this.agentOf(t) };
    for (const t of this.allTasks()) {
      // one whose agent's run is over waits only for its merge: its slot is free
      if (t.status !== "in_progress" || runOver(agents, t)) continue;
      const host = t.host ?? LOCAL_HOST;
      used.set(host, (used.get(host) ?? 0) + 1);
    }
    // slots bound dispatched agents: what else runs there (by hand, a lost run come back) is not counted,
    // as the host's own count is up to a look old
    return pool.map((h) => ({ name: h.name, slots: h.slots, used: used.get(h.name) ?? 0, reachable: h.reachable, error: h.error, providers: h.providers, accounts: h.accounts }));
  }

  /** A remote task's agent as its host last showed it (Snapshot.hostAgent). */
  agentOf(t: TaskRecord): AgentView | null | undefined {
    return t.hostAgent === null ? undefined : this.watch.agent(t.host!, t.hostAgent);
  }

  /** Why a remote task's host counts as lost, or null (Snapshot.hostLost). */
  lostWhy(t: TaskRecord): string | null {
    const graceS = this.d.graceSeconds() ?? DEFAULT_HOST_GRACE_S;
    const silent = this.watch.silentFor(t.host!);
    return silent > graceS * 1000 ? `${t.host} did not answer for ${Math.round(silent / 1000)} s (dispatch.hostGraceSeconds: ${graceS})` : null;
  }

  /** A start cut off may be tried again now (not within RETRY_MS of its last failure). */
  mayRetry(taskId: string): boolean {
    return (this.retryAt.get(taskId) ?? 0) <= Date.now();
  }

  /**
   * Lost: the run there is recorded as lost and the task goes back to be placed again; unless its
   * branch was fetched already (its agent was done, and this daemon died before the merge was
   * recorded): that ref is what to merge, never a second run.
   */
  async lose(step: Extract<SettleStep, { kind: "lost" }>): Promise<string | null> {
    const { task } = step;
    const fetched = await this.tasks.fetchedBefore(task);
    if (fetched) return fetched;
    this.d.log.warn(`task ${task.slug}: ${step.reason}; its run ${task.hostAgent} there is recorded as lost and the task placed again`);
    const lost = { host: task.host!, agent: task.hostAgent!, branch: task.branch, lostAt: Date.now(), outcome: null };
    this.d.writes.task(task, { status: "pending", host: null, hostAgent: null, branch: null, placement: `lost on ${task.host}: ${step.reason}`, resolveSession: null, conflicts: null, lostRuns: [...task.lostRuns, lost] });
    return null;
  }

  /** Its agent there resumed to resolve a conflict; the reply is what the watch shows of it until its next look (so no pass resumes it twice). */
  async resolve(init: InitiativeRecord, task: TaskRecord, files: string[]): Promise<void> {
    const agent = await this.tasks.resolve(init, task, files);
    this.watch.saw(task.host!, task.hostAgent!, agent);
  }

  /** The task's branch fetched from its host: the ref to merge, or null when the host did not give it (tried again at a later look). */
  async fetch(task: TaskRecord): Promise<string | null> {
    try {
      return await this.tasks.fetch(task);
    } catch (err) {
      this.d.log.warn(`task ${task.slug}: ${errorMessage(err)}; tried again in ${RETRY_MS / 1000} s`);
      setTimeout(() => this.d.news(), RETRY_MS).unref?.();
      this.watch.poke();
      return null;
    }
  }

  /** A lost run's end, once its host shows it: recorded on the task, never merged. */
  private recordLostOutcomes(): void {
    for (const task of this.allTasks()) {
      let changed = false;
      const runs = task.lostRuns.map((r) => {
        const seen = r.outcome === null ? this.watch.agent(r.host, r.agent) : undefined;
        if (seen === undefined) return r;
        const outcome = seen === null ? "removed there" : seen.status === "done" ? `done: ${seen.result ?? "no result"}` : seen.status === "failed" ? `failed: ${seen.error ?? "no reason given"}` : seen.status === "stopped" ? "stopped" : null;
        if (outcome === null) return r;
        changed = true;
        this.d.log.info(`task ${task.slug}'s lost run ${r.agent} on ${r.host} ended (${outcome}); recorded, not merged`);
        return { ...r, outcome };
      });
      if (changed) this.d.writes.task(task, { lostRuns: runs });
    }
  }

  /**
   * A claimed task's run started on its host (HostTasks.start), its branch there recorded. A host
   * that refused it fails the task, as a refused spawn here does; one that did not answer is
   * tried again (the claim stands, the name there keeps a second start from running it twice)
   * until its grace runs out and the task is placed elsewhere.
   */
  async start(init: InitiativeRecord, task: TaskRecord, opts: RunOptions): Promise<void> {
    const same = () => {
      const now = this.d.store.tasks.get(task.id);
      return now?.status === "in_progress" && now.hostAgent === task.hostAgent ? now : null;
    };
    try {
      const branch = await this.tasks.start(init, task, this.d.hosted(task.id), opts);
      this.retryAt.delete(task.id);
      this.tries.delete(task.id);
      const now = same();
      if (now) this.d.writes.task(now, { branch, reason: null });
    } catch (err) {
      const now = same();
      if (!now) return;
      // a host that answers (its look says so) and still fails the start TRIES times is told to the person
      const tries = (this.tries.get(task.id) ?? 0) + 1;
      const answers = this.watch.silentFor(task.host!) < RETRY_MS;
      if ((err instanceof TroupeError && !TRANSIENT.has(err.code)) || (answers && tries >= TRIES)) {
        this.retryAt.delete(task.id);
        this.tries.delete(task.id);
        this.d.writes.task(now, { status: "failed", reason: `its agent could not start on ${task.host}${tries > 1 ? ` (${tries} tries)` : ""}: ${errorMessage(err)}` });
        return;
      }
      this.tries.set(task.id, tries);
      this.d.log.warn(`task ${task.slug}: starting it on ${task.host}: ${errorMessage(err)}; tried again in ${RETRY_MS / 1000} s`);
      this.retryAt.set(task.id, Date.now() + RETRY_MS);
      setTimeout(() => this.d.news(), RETRY_MS).unref?.();
      this.d.writes.task(now, { reason: `could not start on ${task.host} yet (${errorMessage(err)}); tried again` });
      this.watch.poke();
    }
  }
}
