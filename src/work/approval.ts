import { TroupeError, errorMessage } from "../errors.ts";
import type { EditRequestSchema, RejectRequestSchema, ApproveRequestSchema, WorkItems } from "../protocol/api-work.ts";
import type { z } from "zod";
import { toInitiative } from "../store/initiatives.ts";
import { toPhase } from "../store/phases.ts";
import { toTask } from "../store/tasks.ts";
import { assertAcyclic, resolveRefs } from "./dag.ts";
import { publish, type Change, type WorkDeps } from "./deps.ts";
import { resolveInitiative, resolveItem, resolveTask, type WorkItem } from "./refs.ts";
import { revisePrompt } from "./revise-prompt.ts";
import { assertTransition } from "./transitions.ts";
import type { Task } from "../protocol/work.ts";

export type ApproveOptions = z.output<typeof ApproveRequestSchema>;
export type RejectOptions = z.output<typeof RejectRequestSchema>;
export type EditOptions = z.output<typeof EditRequestSchema>;

const label = (item: WorkItem) => `${item.kind} ${item.rec.slug}`;

/** What changed, as the API returns it. */
function itemsOf(changes: Change[]): WorkItems {
  const out: WorkItems = { initiatives: [], phases: [], tasks: [] };
  for (const c of changes) {
    if (c.kind === "initiative") out.initiatives.push(toInitiative(c.rec));
    else if (c.kind === "phase") out.phases.push(toPhase(c.rec));
    else if (c.kind === "task") out.tasks.push(toTask(c.rec));
  }
  return out;
}

/** The person's decisions on proposals (approve, reject, edit) and on stopped tasks (retry). */
export class Approval {
  constructor(private readonly d: WorkDeps) {}

  /** Every item, or every proposed phase and task of one initiative, at once: all approved or none. */
  approve(req: ApproveOptions): WorkItems {
    const { store } = this.d;
    let items: WorkItem[];
    if (req.all !== undefined) {
      const init = resolveInitiative(store, req.all);
      items = [
        ...store.phases.list(init.id).filter((p) => p.status === "proposed").map((rec): WorkItem => ({ kind: "phase", rec })),
        ...store.tasks.listByInitiative(init.id).filter((t) => t.status === "proposed").map((rec): WorkItem => ({ kind: "task", rec })),
      ];
    } else {
      const seen = new Set<string>();
      items = req.ids.map((ref) => resolveItem(store, ref)).filter((i) => !seen.has(i.rec.id) && seen.add(i.rec.id));
    }
    for (const item of items) {
      if (item.kind === "initiative") {
        if (item.rec.proposedGoal === null) throw new TroupeError("invalid_state", `initiative ${item.rec.slug} has no proposed goal to accept`);
      } else if (item.rec.status !== "proposed") {
        throw new TroupeError("invalid_state", `${label(item)} is ${item.rec.status}; only a proposed ${item.kind} can be approved`);
      }
    }
    const changes: Change[] = [];
    store.db.transaction(() => {
      for (const item of items) {
        if (item.kind === "initiative") {
          const rec = store.initiatives.update(item.rec.id, { goal: item.rec.proposedGoal!, proposedGoal: null, proposedGoalBy: null });
          changes.push({ kind: "initiative", created: false, rec });
        } else if (item.kind === "phase") {
          assertTransition("phase", item.rec.slug, item.rec.status, "approved");
          changes.push({ kind: "phase", created: false, rec: store.phases.update(item.rec.id, { status: "approved", reason: null }) });
        } else {
          assertTransition("task", item.rec.slug, item.rec.status, "pending");
          changes.push({ kind: "task", created: false, rec: store.tasks.update(item.rec.id, { status: "pending", reason: null }) });
        }
      }
    })();
    publish(this.d.bus, changes);
    return itemsOf(changes);
  }

  /**
   * A proposed phase or task (or an initiative's proposed goal) turned down with a reason. With
   * `revise`, its proposing agent is resumed with the reason; it stays marked so that agent's next
   * proposal replaces it. The agent must be resumable first, or nothing changes.
   */
  async reject(ref: string, req: RejectOptions): Promise<WorkItems> {
    const { store, agents } = this.d;
    const item = resolveItem(store, ref);
    const proposer = item.kind === "initiative" ? item.rec.proposedGoalBy : item.rec.proposedBy;
    if (item.kind === "initiative") {
      if (item.rec.proposedGoal === null) throw new TroupeError("invalid_state", `initiative ${item.rec.slug} has no proposed goal to reject`);
    } else if (item.rec.status !== "proposed") {
      throw new TroupeError("invalid_state", `${label(item)} is ${item.rec.status}; only a proposed ${item.kind} can be rejected`);
    }
    if (req.revise) {
      if (proposer === null) throw new TroupeError("bad_request", `${label(item)} was not proposed by an agent: there is nobody to send it back to`);
      if (!agents.canResume(proposer)) {
        const a = store.agents.get(proposer);
        throw new TroupeError("invalid_state", `${a?.name ?? proposer}, which proposed ${label(item)}, cannot be resumed now${a ? ` (it is ${a.status})` : ""}; reject without --revise, or wait for it to end`);
      }
    }
    let change: Change;
    if (item.kind === "initiative") {
      change = { kind: "initiative", created: false, rec: store.initiatives.update(item.rec.id, { proposedGoal: null, proposedGoalBy: null }) };
    } else if (item.kind === "phase") {
      assertTransition("phase", item.rec.slug, item.rec.status, "rejected");
      change = { kind: "phase", created: false, rec: store.phases.update(item.rec.id, { status: "rejected", reason: req.reason, revise: req.revise }) };
    } else {
      assertTransition("task", item.rec.slug, item.rec.status, "rejected");
      change = { kind: "task", created: false, rec: store.tasks.update(item.rec.id, { status: "rejected", reason: req.reason, revise: req.revise }) };
    }
    publish(this.d.bus, [change]);
    if (req.revise && proposer !== null) {
      try {
        await agents.resumeWith(proposer, revisePrompt(item, req.reason));
      } catch (err) {
        const code = err instanceof TroupeError ? err.code : "internal";
        throw new TroupeError(code, `${label(item)} is rejected, but its agent was not resumed: ${errorMessage(err)}`, { cause: err });
      }
    }
    return itemsOf([change]);
  }

  /** A proposed phase or task as the person rewrote it; dependencies are checked as a proposal's are. */
  edit(ref: string, req: EditOptions): WorkItems {
    const { store } = this.d;
    const item = resolveItem(store, ref);
    if (item.kind === "initiative") throw new TroupeError("bad_request", `${ref} is an initiative; edit a proposed phase or task`);
    if (item.rec.status !== "proposed") throw new TroupeError("invalid_state", `${label(item)} is ${item.rec.status}; only a proposed ${item.kind} can be edited`);
    let dependsOn: string[] | undefined;
    if (req.dependsOn) {
      const siblings: { id: string; slug: string; dependsOn: string[] }[] =
        item.kind === "phase" ? store.phases.list(item.rec.initiativeId) : store.tasks.listByPhase(item.rec.phaseId);
      const local = new Map<string, string>();
      for (const s of siblings) local.set(s.slug, s.id).set(s.id, s.id);
      const where = item.kind === "phase" ? `initiative ${store.initiatives.get(item.rec.initiativeId)?.slug}` : `phase ${store.phases.get(item.rec.phaseId)?.slug}`;
      const [node] = resolveRefs([{ id: item.rec.id, label: item.rec.slug, dependsOn: req.dependsOn }], {
        local,
        elsewhere: (r) => (item.kind === "phase" ? (store.phases.find(r) ? "another initiative" : null) : store.tasks.find(r) ? "another phase" : null),
        kind: item.kind,
        where,
      });
      dependsOn = node!.dependsOn;
      assertAcyclic(
        siblings.map((s) => ({ id: s.id, label: s.slug, dependsOn: s.id === item.rec.id ? dependsOn! : s.dependsOn })),
        item.kind,
      );
    }
    if (item.kind === "phase" && req.files !== undefined) throw new TroupeError("bad_request", `${label(item)} is a phase; files are a task's`);
    const title = req.title?.trim();
    const change: Change =
      item.kind === "phase"
        ? { kind: "phase", created: false, rec: store.phases.update(item.rec.id, { title, content: req.body, dependsOn }) }
        : { kind: "task", created: false, rec: store.tasks.update(item.rec.id, { title, description: req.body, dependsOn, ...(req.files === undefined ? {} : { files: req.files && [...new Set(req.files)] }) }) };
    publish(this.d.bus, [change]);
    return itemsOf([change]);
  }

  /** A phase or task pinned to `host` (one of `hosts`: the pool's names), or unpinned (null). */
  pin(ref: string, host: string | null, hosts: readonly string[]): WorkItems {
    const { store } = this.d;
    const item = resolveItem(store, ref);
    if (item.kind === "initiative") throw new TroupeError("bad_request", `${ref} is an initiative; pin one of its phases or tasks`);
    if (host !== null && !hosts.includes(host)) throw new TroupeError("bad_request", `${host} is not a host of the pool: ${hosts.join(", ")} ('troupe remote set NAME --slots N' adds one)`);
    const change: Change = item.kind === "phase" ? { kind: "phase", created: false, rec: store.phases.update(item.rec.id, { pin: host }) } : { kind: "task", created: false, rec: store.tasks.update(item.rec.id, { pin: host }) };
    publish(this.d.bus, [change]);
    return itemsOf([change]);
  }

  /** A blocked or failed task back to `pending`, once the person fixed what stopped it; dispatch takes it from there. */
  retry(ref: string): Task {
    const t = resolveTask(this.d.store, ref);
    if (t.status !== "blocked" && t.status !== "failed") {
      throw new TroupeError("invalid_state", `task ${t.slug} is ${t.status}; only a blocked or failed task can be retried`);
    }
    assertTransition("task", t.slug, t.status, "pending");
    const rec = this.d.store.tasks.update(t.id, { status: "pending", reason: null, conflicts: null });
    publish(this.d.bus, [{ kind: "task", created: false, rec }]);
    return toTask(rec);
  }
}
