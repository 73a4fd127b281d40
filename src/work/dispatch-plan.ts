import { LOCAL_HOST } from "../protocol/host.ts";
import { isLive, type AgentStatus } from "../protocol/status.ts";
import type { PhaseStatus } from "../protocol/work.ts";
import type { PhaseRecord } from "../store/phases.ts";
import type { TaskRecord } from "../store/tasks.ts";
import { dependencyOrder, readyOrder } from "./dag.ts";
import { FileOwnership } from "./file-ownership.ts";
import { place, type HostSlots } from "./placement.ts";

/**
 * What dispatch does next for one initiative, as pure functions of what the store holds: the
 * dispatcher (dispatch.ts) carries the steps out and asks again. Two questions, asked in turn:
 * `settle` (what became of the tasks under way: merge, fail, recover) and `advance` (what starts
 * now and which phases and the initiative are complete). Being pure, they are tested as tables
 * (tests/work/dispatch-plan.test.ts), and a daemon that starts over after `kill -9` asks them the
 * same questions of the same store.
 */

/** What the plan needs of an agent. */
export interface AgentView {
  id: string;
  name: string;
  status: AgentStatus;
  session: number;
  error: string | null;
  /** Its branch and its result (a remote agent's, as its host shows them). */
  branch?: string | null;
  result?: string | null;
}

/** What the plan needs of an agent record or reply. */
export function agentView(a: AgentView & { branch: string | null; result: string | null }): AgentView {
  return { id: a.id, name: a.name, status: a.status, session: a.session, error: a.error, branch: a.branch, result: a.result };
}

export type SettleStep =
  /** Its agent's run is over, done: merge its branch into the initiative branch. */
  | { kind: "merge"; task: TaskRecord; agent: AgentView }
  /** A conflict's resume was recorded but never started (the daemon died in between). */
  | { kind: "resolve"; task: TaskRecord; agent: AgentView }
  | { kind: "fail"; task: TaskRecord; reason: string }
  /** `in_progress` without its agent: a start the daemon died in. Its agent, if one was made. */
  | { kind: "recover"; task: TaskRecord }
  /** Placed on a remote host that has not answered for its grace period: placed again elsewhere. */
  | { kind: "lost"; task: TaskRecord; reason: string };

export type AdvanceStep =
  | { kind: "phase"; phase: PhaseRecord; status: PhaseStatus; reason: string | null }
  | { kind: "detail"; phase: PhaseRecord }
  /** `placed`: the host of the pool it runs on and why; null: no pool (this machine, unplaced). */
  | { kind: "start"; task: TaskRecord; placed: { host: string; why: string } | null }
  /** Why a ready task does not start (another under way owns a file it needs; no free slot), or null once nothing holds it. */
  | { kind: "wait"; task: TaskRecord; reason: string | null }
  | { kind: "complete" }
  /** Why the initiative starts nothing (its budget spent), or null once nothing holds it: when that changes. */
  | { kind: "hold"; reason: string | null };

export interface Snapshot {
  phases: PhaseRecord[];
  tasks: TaskRecord[];
  agent: (id: string) => AgentView | null;
  /** Detail agents of a phase, oldest first. */
  detailAgents: (phaseId: string) => AgentView[];
  /** A phase whose detail agent would not start: not tried again until the person dispatches again. */
  detailRefused: (phaseId: string) => boolean;
  /** A task or phase whose agent this daemon is spawning now: under way, its agent not recorded yet. */
  starting: (id: string) => boolean;
  concurrency: number;
  /** The initiative's slug, for its reason. */
  slug: string;
  /** The initiative's budget and what its agents spent; budget null: no limit. */
  budgetUsd: number | null;
  spentUsd: number;
  /** The initiative's reason as the store holds it. */
  reason: string | null;
  /** The workspace's pool, this machine first, `used` counting every initiative's tasks under way; null: no pool. */
  hosts: HostSlots[] | null;
  /** The provider dispatch runs, and how long a task is expected to take (its phase's median). */
  provider: string;
  expectedMs: (task: TaskRecord) => number;
  now: number;
  /**
   * A task's agent on the remote host it was placed on, as last seen there: undefined while not
   * seen (not asked yet, or the host does not answer), null when the host has no such agent.
   */
  hostAgent: (task: TaskRecord) => AgentView | null | undefined;
  /** Why a remote task's host counts as lost (silent past its grace), or null. */
  hostLost: (task: TaskRecord) => string | null;
}

/** A task under way whose agent's run is over (done, failed, stopped): what is left is dispatch's (its merge). */
export function runOver(s: Pick<Snapshot, "agent" | "hostAgent">, t: TaskRecord): boolean {
  const agent = onRemote(t) ? s.hostAgent(t) : t.agentId === null ? null : s.agent(t.agentId);
  return !!agent && (agent.status === "done" || agent.status === "failed" || agent.status === "stopped");
}

/** Placed on a host of the pool other than this machine: its agent runs under that host's daemon. */
export function onRemote(task: Pick<TaskRecord, "host">): boolean {
  return task.host !== null && task.host !== LOCAL_HOST;
}

/** Why an initiative whose budget is spent starts nothing, and how the person goes on. */
function budgetReason(slug: string, spentUsd: number, budgetUsd: number): string {
  return `budget spent: $${spentUsd.toFixed(2)} of $${budgetUsd.toFixed(2)}; raise it with troupe initiative budget ${slug} USD`;
}

/** Tasks under way whose agent's run ended, or that a crash left without their agent. */
export function settle(s: Snapshot): SettleStep[] {
  const steps: SettleStep[] = [];
  for (const task of s.tasks) {
    if (task.status !== "in_progress" || s.starting(task.id)) continue;
    let agent: AgentView | null | undefined;
    if (onRemote(task)) {
      const lost = s.hostLost(task);
      if (lost) {
        steps.push({ kind: "lost", task, reason: lost });
        continue;
      }
      // its branch is recorded once its agent there is known
      if (task.branch === null) {
        steps.push({ kind: "recover", task });
        continue;
      }
      agent = s.hostAgent(task);
      if (agent === undefined) continue;
      if (agent === null) {
        steps.push({ kind: "fail", task, reason: `its agent ${task.hostAgent} on ${task.host} was removed before its work was merged` });
        continue;
      }
    } else {
      if (task.agentId === null) {
        steps.push({ kind: "recover", task });
        continue;
      }
      agent = s.agent(task.agentId);
      if (!agent) {
        steps.push({ kind: "fail", task, reason: "its agent was removed before its work was merged" });
        continue;
      }
    }
    switch (agent.status) {
      case "starting":
      case "running":
      case "waiting":
        break;
      case "done":
        steps.push(task.resolveSession !== null && agent.session < task.resolveSession ? { kind: "resolve", task, agent } : { kind: "merge", task, agent });
        break;
      case "failed":
        steps.push({ kind: "fail", task, reason: `agent ${agent.name} failed: ${agent.error ?? "no reason given"}` });
        break;
      case "stopped":
        steps.push({ kind: "fail", task, reason: `agent ${agent.name} was stopped` });
        break;
    }
  }
  return steps;
}

const ACTIVE: PhaseStatus[] = ["approved", "in_progress", "blocked"];

/**
 * Phase statuses, details and starts (at most `concurrency` tasks under way, never two whose
 * files could meet, none once the budget is spent: then the initiative holds with a reason), each
 * ready task that does not start with why, then the initiative's completion.
 */
export function advance(s: Snapshot): AdvanceStep[] {
  const steps: AdvanceStep[] = [];
  const spent = s.budgetUsd !== null && s.spentUsd >= s.budgetUsd;
  /** Starts the budget held back: the initiative says why while there are any. */
  let held = 0;
  const status = new Map(s.phases.map((p) => [p.id, p.status]));
  const reasons = new Map(s.phases.map((p) => [p.id, p.reason]));
  const setStatus = (phase: PhaseRecord, to: PhaseStatus, reason: string | null = null) => {
    const from = status.get(phase.id)!;
    if (from === to && reason === reasons.get(phase.id)) return;
    // a phase reaches completed through in_progress (the table's only way there)
    if (to === "completed" && from !== "in_progress") steps.push({ kind: "phase", phase, status: "in_progress", reason: null });
    steps.push({ kind: "phase", phase, status: to, reason });
    status.set(phase.id, to);
    reasons.set(phase.id, reason);
  };
  const tasksOf = new Map<string, TaskRecord[]>();
  for (const t of s.tasks) {
    if (t.status === "rejected") continue;
    const list = tasksOf.get(t.phaseId) ?? [];
    list.push(t);
    tasksOf.set(t.phaseId, list);
  }
  const underWay = s.tasks.filter((t) => t.status === "in_progress");
  const owners = new FileOwnership(s.tasks.filter((t) => t.status !== "rejected"));
  /** Why each ready task that does not start waits. */
  const waits = new Map<string, string>();
  /** The tasks this pass starts. */
  const started = new Set<string>();
  // a task whose agent's run is over holds no slot while it waits for its merge; it still owns its files
  let slots = s.concurrency - underWay.filter((t) => !runOver(s, t)).length;
  const hosts = s.hosts?.map((h) => ({ ...h })) ?? null;
  const pins = new Map(s.phases.map((p) => [p.id, p.pin]));
  for (const phase of dependencyOrder(s.phases)) {
    if (!ACTIVE.includes(status.get(phase.id)!)) continue;
    if (!phase.dependsOn.every((d) => status.get(d) === "completed")) continue;
    const tasks = tasksOf.get(phase.id) ?? [];
    if (!tasks.length) {
      const details = s.detailAgents(phase.id);
      const last = details.at(-1);
      if (s.starting(phase.id)) continue;
      if (!last) {
        if (s.detailRefused(phase.id)) continue;
        if (spent) {
          held++;
          continue;
        }
        setStatus(phase, "in_progress");
        steps.push({ kind: "detail", phase });
      } else if (isLive(last.status) || last.status === "waiting") {
        setStatus(phase, "in_progress");
      } else if (last.status === "failed" || last.status === "stopped") {
        // stays detailable: `troupe detail` on it again is how the person goes on
        setStatus(phase, "in_progress", `its detail agent ${last.name} ${last.status === "failed" ? `failed: ${last.error ?? "no reason given"}` : "was stopped"}`);
      }
      continue;
    }
    const done = (id: string) => tasks.find((t) => t.id === id)?.status === "completed";
    const ready = readyOrder(tasks, (t) => t.status === "pending", done);
    for (const task of ready) {
      if (spent) {
        if (slots > 0) held++;
        break;
      }
      const holder = underWay.map((other) => ({ other, what: owners.clash(task, other) })).find((h) => h.what !== null);
      if (holder) waits.set(task.id, `waits for ${holder.other.slug} (${holder.what})`);
      else if (slots <= 0) waits.set(task.id, "waits for a free slot");
      else {
        let placed: { host: string; why: string } | null = null;
        if (hosts) {
          const p = place(hosts, { provider: s.provider, pin: task.pin ?? pins.get(task.phaseId) ?? null, expectedMs: s.expectedMs(task), now: s.now });
          if ("wait" in p) {
            waits.set(task.id, p.wait);
            continue;
          }
          placed = p;
          hosts.find((h) => h.name === p.host)!.used++;
        }
        setStatus(phase, "in_progress");
        steps.push({ kind: "start", task, placed });
        started.add(task.id);
        underWay.push(task);
        slots--;
      }
    }
    if (tasks.every((t) => t.status === "completed")) setStatus(phase, "completed");
    else {
      const stuck = tasks.filter((t) => t.status === "blocked" || t.status === "failed");
      const moving = tasks.some((t) => t.status === "in_progress" || started.has(t.id) || (t.status === "pending" && ready.includes(t)));
      if (stuck.length && !moving) setStatus(phase, "blocked", `task ${stuck.map((t) => t.slug).join(", ")} ${stuck.length > 1 ? "are" : "is"} ${stuck[0]!.status}`);
      else if (moving && status.get(phase.id) === "blocked") setStatus(phase, "in_progress");
    }
  }
  for (const task of s.tasks) {
    const reason = waits.get(task.id) ?? null;
    // a start clears it with the claim; a task under way keeps what its start said (a host that did not answer yet)
    if (reason !== task.waiting && !started.has(task.id) && task.status !== "in_progress") steps.push({ kind: "wait", task, reason });
  }
  const live = s.phases.filter((p) => status.get(p.id) !== "rejected");
  if (live.length && live.every((p) => status.get(p.id) === "completed")) steps.push({ kind: "complete" });
  const reason = held && s.budgetUsd !== null ? budgetReason(s.slug, s.spentUsd, s.budgetUsd) : null;
  if (reason !== s.reason) steps.push({ kind: "hold", reason });
  return steps;
}
