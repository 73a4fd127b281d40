import { existsSync } from "node:fs";
import { TroupeError, errorMessage } from "../errors.ts";
import type { EventBus, Published } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import { captureIdentity, type InitiativeMerger } from "../git/merge.ts";
import type { Agent } from "../protocol/entities.ts";
import { isLive } from "../protocol/status.ts";
import type { Initiative, AgentMode } from "../protocol/work.ts";
import type { Store } from "../store/index.ts";
import type { TaskRecord } from "../store/tasks.ts";
import { toInitiative, type InitiativeRecord } from "../store/initiatives.ts";
import { getProvider } from "../../providers/index.ts";
import type { SpawnWork } from "../agents/files/input-folder.ts";
import { LOCAL_HOST } from "../protocol/host.ts";
import type { HostPort } from "./host-port.ts";
import { hostAgentName } from "./host-tasks.ts";
import { PoolDispatch } from "./pool-dispatch.ts";
import { publish } from "./deps.ts";
import { expectedTaskMs } from "./expected-duration.ts";
import { DispatchEnvStore, runEnv, type Captured } from "./dispatch-env.ts";
import { advance, agentView, onRemote, settle, type AdvanceStep, type AgentView, type SettleStep, type Snapshot } from "./dispatch-plan.ts";
import { resolveInitiative } from "./refs.ts";
import { StatusWrites } from "./status-writes.ts";
import { TaskMerges, type Resumer } from "./task-merge.ts";
import { assertTransition } from "./transitions.ts";

/** Starts mode agents: ModeService.start (src/work/modes.ts). */
interface ModeStarter {
  start(mode: AgentMode, ref: string, opts: { provider?: string; model?: string; command?: string; env: Record<string, string>; budgetUsd?: number; expectedMs?: number }): Promise<Agent>;
  /** What a run of `mode` on `ref` gets (its input files) when another host runs it. */
  hosted(mode: AgentMode, ref: string): SpawnWork;
}

export interface DispatchDeps {
  root: string;
  stateDir: string;
  store: Store;
  bus: EventBus;
  log: Logger;
  modes: ModeStarter;
  agents: Resumer;
  /** The workspace config's `dispatch.taskMinutes`, read at each start. */
  taskMinutes(): number | undefined;
  /** The workspace's pool of hosts (src/hosts/), the config's `dispatch.hostGraceSeconds` and how long a host may take to answer; absent: this machine alone. */
  pool?: { port: HostPort; graceSeconds(): number | undefined; timeoutMs: number };
}

export interface DispatchOptions {
  concurrency: number;
  provider?: string;
  model?: string;
  command?: string;
  env: Record<string, string>;
}

const WAKES = new Set(["agent:removed", "task:created", "task:updated", "phase:created", "phase:updated", "initiative:updated"]);

/**
 * Drives dispatched initiatives (`troupe dispatch`): starts detail agents for approved phases
 * with no tasks and execute agents for ready tasks (at most `concurrency` under way), merges each
 * finished task's branch into the initiative branch (one merge at a time, in the worktree troupe
 * owns), resumes a conflicting task's agent once to resolve, and completes phases and the
 * initiative. Everything it decides is read from the store (dispatch-plan.ts) and written back
 * before and after each act, so a daemon killed at any point goes on where it stopped: a start is
 * claimed (`in_progress`, no agent yet) before the spawn and recovered by the task's agent after
 * it; a merge is checked against the branch (`merge-base`) before it is made. Woken by an
 * agent's run end (runEnded) and by events (approvals, retries, removals), one pass at a time;
 * once more at start.
 */
export class Dispatcher {
  private readonly envs: DispatchEnvStore;
  private off: (() => void) | null = null;
  private dirty = false;
  private closed = false;
  private loop: Promise<void> | null = null;
  /** Initiatives whose merge worktree goes once no merge runs (stopped, completed). */
  private readonly release = new Map<string, InitiativeMerger>();
  /** Phases whose detail agent would not start: not tried again until the next `troupe dispatch`. */
  private readonly detailRefused = new Set<string>();
  /**
   * Spawns under way, by task or phase id. They run beside the passes (a spawn makes a worktree
   * and starts a process: merges need not wait for it), each followed by a pass.
   */
  private readonly starting = new Map<string, Promise<void>>();
  private readonly writes: StatusWrites;
  private readonly merges: TaskMerges;
  /** The pool as dispatch sees it, and its acts on remote tasks; null: this machine alone. */
  private readonly pool: PoolDispatch | null;

  constructor(private readonly d: DispatchDeps) {
    this.envs = new DispatchEnvStore(d.stateDir);
    this.writes = new StatusWrites(d);
    this.pool = d.pool
      ? new PoolDispatch({
          ...d.pool,
          root: d.root,
          store: d.store,
          log: d.log,
          writes: this.writes,
          hosted: (taskId) => d.modes.hosted("execute", taskId),
          active: () => !this.closed && d.store.initiatives.list().some((i) => i.status === "active" && i.dispatch !== null),
          news: () => this.kick(),
        })
      : null;
    this.merges = new TaskMerges({ ...d, writes: this.writes, resolveOnHost: (init, task, files) => this.pool!.resolve(init, task, files) });
  }

  start(): void {
    this.off = this.d.bus.subscribe((p) => this.on(p));
    this.kick();
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    this.pool?.close();
    this.off?.();
    this.off = null;
    while (this.loop || this.starting.size) await Promise.all([this.loop, ...this.starting.values()]);
  }

  /** A step of the end-of-run sequence (src/services/end-of-run.ts): a run's end is news to settle. */
  runEnded(): void {
    if (this.off !== null) this.kick();
  }

  /** Starts (or re-settles) dispatching: captures the person's environment and identity now. */
  async dispatch(ref: string, opts: DispatchOptions): Promise<Initiative> {
    const init = resolveInitiative(this.d.store, ref);
    if (init.status !== "active") throw new TroupeError("invalid_state", `initiative ${init.slug} is ${init.status}; only an active initiative is dispatched`);
    const provider = opts.provider ?? (opts.command ? "generic" : "claude");
    const p = getProvider(provider);
    if (!p) throw new TroupeError("provider_unknown", `no provider '${provider}' ('troupe providers' lists them)`);
    if (p.binary === null && !opts.command) throw new TroupeError("bad_request", `the ${provider} provider needs --command`);
    const identity = await captureIdentity(this.d.root, opts.env);
    this.envs.save(init.id, opts.env, identity);
    const rec = this.d.store.initiatives.update(init.id, {
      dispatch: { concurrency: opts.concurrency, provider, model: opts.model ?? null, command: opts.command ?? null, startedAt: init.dispatch?.startedAt ?? Date.now() },
    });
    publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
    for (const phase of this.d.store.phases.list(init.id)) this.detailRefused.delete(phase.id);
    this.d.log.info(`dispatching ${init.slug}: ${provider}${opts.model ? ` ${opts.model}` : ""}, ${opts.concurrency} at once, as ${identity.name} <${identity.email}>`);
    this.kick();
    return toInitiative(rec);
  }

  /** No new runs, no merges: agents under way go on, and a later dispatch merges what they did. */
  stop(ref: string): Initiative {
    const init = resolveInitiative(this.d.store, ref);
    if (!init.dispatch) return toInitiative(init);
    const rec = this.stopNow(init);
    this.kick();
    return toInitiative(rec);
  }

  /** Dispatch off: the capture goes at once, the merge worktree once no merge runs. */
  private stopNow(init: InitiativeRecord, patch: { status?: "completed" } = {}): InitiativeRecord {
    this.envs.remove(init.id);
    this.release.set(init.id, this.merges.take(init));
    this.dirty = true;
    if (!init.dispatch && !patch.status) return init;
    const rec = this.d.store.initiatives.update(init.id, { ...patch, dispatch: null });
    publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
    return rec;
  }

  private on({ event }: Published): void {
    // a mode agent failed after its end (outputs refused) or otherwise changed without ending;
    // every other agent:updated (output metadata, a plain agent) is no news to dispatch
    if (WAKES.has(event.type) || (event.type === "agent:updated" && event.agent.mode !== null && !isLive(event.agent.status))) this.kick();
  }

  private kick(): void {
    if (this.closed) return;
    this.dirty = true;
    // later, never inside the publisher: every other listener sees the event first
    this.loop ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run());
  }

  private async run(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        for (const [id, merger] of this.release) {
          this.release.delete(id);
          await merger.release().catch((err: unknown) => this.d.log.warn(`removing the merge worktree ${merger.path}`, err));
        }
        for (const init of this.d.store.initiatives.list()) {
          if (init.status !== "active" || !init.dispatch) {
            // archived (or stopped by an older daemon) without this dispatcher: its capture and worktree go too
            if (this.merges.has(init.id) || existsSync(this.envs.path(init.id))) this.stopNow(init);
            continue;
          }
          try {
            await this.pass(init);
          } catch (err) {
            this.d.log.error(`dispatching ${init.slug}`, err);
          }
        }
      }
    } finally {
      this.loop = null;
      if (this.dirty) this.kick();
    }
  }

  private async pass(init: InitiativeRecord): Promise<void> {
    let captured: Captured;
    try {
      captured = this.envs.load(init.id, init.slug);
    } catch (err) {
      this.d.log.error(`dispatch of ${init.slug} stops: ${errorMessage(err)}`);
      this.stopNow(init);
      return;
    }
    await this.pool?.ready(init);
    const settling = settle(this.snapshot(init));
    // each finished task readied at once (its worktree checked here, or its branch fetched from its host); the merges then one at a time
    const ready = new Map(settling.flatMap((s) => (s.kind === "merge" ? [[s.task.id, this.mergeReady(s.task, s.agent)] as const] : [])));
    for (const p of ready.values()) p.catch(() => undefined);
    for (const step of settling) await this.settleStep(init, captured, step, ready.get(step.task.id));
    for (const step of advance(this.snapshot(init))) await this.advanceStep(init, captured, step);
  }

  private snapshot(init: InitiativeRecord): Snapshot {
    const { store } = this.d;
    let details: Map<string, AgentView[]> | null = null;
    return {
      phases: store.phases.list(init.id),
      tasks: store.tasks.listByInitiative(init.id),
      concurrency: init.dispatch?.concurrency ?? 1,
      slug: init.slug,
      budgetUsd: init.budgetUsd,
      spentUsd: init.spentUsd,
      reason: init.reason,
      agent: (id) => {
        const a = store.agents.get(id);
        return a ? agentView(a) : null;
      },
      detailAgents: (phaseId) => {
        // asked only of phases without tasks: few, and once per pass
        details ??= this.detailAgents(init.id);
        return details.get(phaseId) ?? [];
      },
      detailRefused: (phaseId) => this.detailRefused.has(phaseId),
      starting: (id) => this.starting.has(id),
      hosts: this.pool?.slots() ?? null,
      provider: init.dispatch?.provider ?? "claude",
      expectedMs: (t) => this.expectedMs(t),
      now: Date.now(),
      hostAgent: (t) => this.pool?.agentOf(t),
      hostLost: (t) => this.pool?.lostWhy(t) ?? null,
    };
  }

  private detailAgents(initiativeId: string): Map<string, AgentView[]> {
    const out = new Map<string, AgentView[]>();
    for (const a of this.d.store.agents.list()) {
      if (a.mode !== "detail" || a.initiativeId !== initiativeId || !a.phaseId) continue;
      const list = out.get(a.phaseId) ?? [];
      list.push(agentView(a));
      out.set(a.phaseId, list);
    }
    return out;
  }

  /** Runs a spawn beside the passes; the id counts as under way until it is recorded. */
  private spawnBeside(id: string, spawn: () => Promise<void>): void {
    const p = spawn()
      .catch((err: unknown) => this.d.log.error(`dispatch spawn for ${id}`, err))
      .finally(() => {
        this.starting.delete(id);
        this.kick();
      });
    this.starting.set(id, p);
  }

  /** How each agent runs: within what is left of the initiative's budget (read now, not at the pass's start). */
  private runOptions(init: InitiativeRecord, captured: Captured): DispatchOptions & { budgetUsd?: number } {
    const d = init.dispatch!;
    const now = this.d.store.initiatives.get(init.id) ?? init;
    const left = now.budgetUsd === null ? undefined : now.budgetUsd - now.spentUsd;
    return { concurrency: d.concurrency, provider: d.provider, model: d.model ?? undefined, command: d.command ?? undefined, env: runEnv(captured), ...(left !== undefined && left > 0 && { budgetUsd: left }) };
  }

  /** How long the task should take: its phase's finished tasks, from their agents' start to their merge. */
  private expectedMs(task: TaskRecord): number {
    const { store } = this.d;
    const agentOf = (t: TaskRecord) => (t.status === "completed" && t.agentId && t.mergedAt ? store.agents.get(t.agentId) : null);
    const finished = store.tasks.listByPhase(task.phaseId).flatMap((t) => [agentOf(t)].flatMap((a) => (a ? [{ startedAt: a.createdAt, mergedAt: t.mergedAt! }] : [])));
    return expectedTaskMs(finished, this.d.taskMinutes());
  }

  /** What a merge needs first: what its agent left uncommitted here, or a remote task's branch fetched (null: not now; what it left there is its host's). */
  private mergeReady(task: TaskRecord, agent: AgentView): Promise<{ dirty: string[]; ref?: string } | null> {
    if (onRemote(task)) return this.pool!.fetch(task).then((ref) => (ref === null ? null : { dirty: [], ref }));
    return this.merges.dirty(agent.id).then((dirty) => ({ dirty }));
  }

  private async settleStep(init: InitiativeRecord, captured: Captured, step: SettleStep, ready?: Promise<{ dirty: string[]; ref?: string } | null>): Promise<void> {
    switch (step.kind) {
      case "recover": {
        if (onRemote(step.task)) {
          // a remote start cut off (a daemon's death, a host that did not answer): started again, or found there by its name
          if (!this.pool?.mayRetry(step.task.id)) return;
          const opts = { ...this.runOptions(init, captured), expectedMs: this.expectedMs(step.task), identity: captured.identity };
          this.spawnBeside(step.task.id, () => this.pool!.start(init, step.task, opts));
          return;
        }
        // the daemon died between claiming the task and recording its agent: find the agent, if it was made
        const agent = this.d.store.agents
          .list()
          .filter((a) => a.taskId === step.task.id && a.mode === "execute")
          .at(-1);
        if (agent) this.writes.task(step.task, { agentId: agent.id, branch: agent.branch });
        else this.writes.task(step.task, { status: "pending" });
        return;
      }
      case "fail":
        this.writes.task(step.task, { status: "failed", reason: step.reason, resolveSession: null });
        return;
      case "lost": {
        // fetched before this daemon died (its agent was done): merged now, never run again
        const ref = await this.pool!.lose(step);
        if (ref) await this.merges.merge(init, captured.identity, step.task, { id: step.task.hostAgent!, name: step.task.hostAgent!, status: "done", session: 0, error: null }, Promise.resolve([]), ref);
        return;
      }
      case "resolve":
        return this.merges.resolve(init, step.task, step.agent.id, step.task.conflicts ?? []);
      case "merge": {
        const r = await (ready ?? this.mergeReady(step.task, step.agent));
        if (r) await this.merges.merge(init, captured.identity, step.task, step.agent, Promise.resolve(r.dirty), r.ref);
        return;
      }
    }
  }

  private async advanceStep(init: InitiativeRecord, captured: Captured, step: AdvanceStep): Promise<void> {
    switch (step.kind) {
      case "phase":
        this.writes.phase(step.phase, step.status, step.reason);
        return;
      case "detail": {
        const opts = this.runOptions(init, captured);
        this.spawnBeside(step.phase.id, async () => {
          try {
            await this.d.modes.start("detail", step.phase.id, opts);
          } catch (err) {
            this.detailRefused.add(step.phase.id);
            this.writes.phase(step.phase, "in_progress", `its detail agent could not start: ${errorMessage(err)}`);
          }
        });
        return;
      }
      case "start": {
        // claimed first, where it goes and its agent's name there too: a daemon killed during the
        // spawn finds the task under way there, not pending
        const { placed } = step;
        const remote = placed !== null && placed.host !== LOCAL_HOST;
        const fresh = { reason: null, waiting: null, conflicts: null, resolveSession: null, agentId: null, branch: null, mergedAt: null, mergeCommit: null };
        const where = { host: placed?.host ?? null, placement: placed?.why ?? null, hostAgent: remote ? hostAgentName(step.task.slug) : null };
        const claimed = this.writes.task(step.task, { status: "in_progress", ...fresh, ...where });
        const opts = { ...this.runOptions(init, captured), expectedMs: this.expectedMs(step.task) };
        if (remote) {
          this.spawnBeside(claimed.id, () => this.pool!.start(init, claimed, { ...opts, identity: captured.identity }));
          return;
        }
        this.spawnBeside(claimed.id, async () => {
          let agent: Agent;
          try {
            agent = await this.d.modes.start("execute", claimed.id, opts);
          } catch (err) {
            this.writes.task(claimed, { status: "failed", reason: `its agent could not start: ${errorMessage(err)}` });
            return;
          }
          const now = this.d.store.tasks.get(claimed.id);
          if (now) this.writes.task(now, { agentId: agent.id, branch: agent.branch });
        });
        return;
      }
      case "wait":
        this.writes.task(step.task, { waiting: step.reason });
        return;
      case "hold": {
        const rec = this.d.store.initiatives.update(init.id, { reason: step.reason });
        publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
        if (step.reason) this.d.log.info(`initiative ${init.slug} holds: ${step.reason}`);
        return;
      }
      case "complete": {
        const now = this.d.store.initiatives.get(init.id);
        if (!now || now.status !== "active") return;
        assertTransition("initiative", now.slug, now.status, "completed");
        this.stopNow(now, { status: "completed" });
        this.d.log.info(`initiative ${now.slug} completed: every phase merged into ${now.branch}`);
        return;
      }
    }
  }
}
