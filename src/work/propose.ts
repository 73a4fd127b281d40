import { TroupeError } from "../errors.ts";
import { newId } from "../agents/tokens.ts";
import { SlugSchema, type Initiative, type Phase, type Task } from "../protocol/work.ts";
import { toInitiative, type InitiativeRecord } from "../store/initiatives.ts";
import { toPhase, type PhaseRecord } from "../store/phases.ts";
import { toTask, type TaskRecord } from "../store/tasks.ts";
import { assertAcyclic, dependencyOrder, resolveRefs, type Node } from "./dag.ts";
import { publish, type Change, type WorkDeps } from "./deps.ts";
import type { PhaseDraft, ProposalSink, TaskDraft } from "./proposal-sink.ts";
import { assertTransition } from "./transitions.ts";

interface Sibling {
  id: string;
  slug: string;
  status: string;
  proposedBy: string | null;
  revise: boolean;
  dependsOn: string[];
}

interface Draft {
  slug: string;
  title: string;
  body: string;
  dependsOn: string[];
}

/** What storing a set of drafts does: each draft's id (new or the item it replaces) and what goes away. */
interface Plan {
  ids: string[];
  replaces: (Sibling | null)[];
  removed: Sibling[];
  order: number[];
}

/**
 * Checks a whole set of drafts against the items already there and decides, without writing:
 * a draft whose slug a `rejected` item holds, or a still-`proposed` item of the same agent,
 * replaces that item in place (same id, so dependencies on it hold); items the agent was asked to
 * revise (`revise`) that the set leaves out are removed; any other slug clash is refused.
 */
function planDrafts(
  kind: "phase" | "task",
  drafts: Draft[],
  agentId: string | null,
  /** Items whose slugs the drafts must not take (tasks: the whole initiative's). */
  slugHolders: Sibling[],
  /** Items the drafts' dependencies may name (tasks: the same phase's). */
  siblings: Sibling[],
  elsewhere: (ref: string) => string | null,
  where: string,
): Plan {
  const seen = new Set<string>();
  for (const d of drafts) {
    const slug = SlugSchema.safeParse(d.slug);
    if (!slug.success) throw new TroupeError("bad_request", `${kind} '${d.slug}': the slug must be ${slug.error.issues[0]?.message ?? "valid"}`);
    if (!d.title.trim()) throw new TroupeError("bad_request", `${kind} ${d.slug}: the title is empty`);
    if (seen.has(d.slug)) throw new TroupeError("bad_request", `${kind} ${d.slug} is proposed twice`);
    seen.add(d.slug);
  }
  const replaces = drafts.map((d) => {
    const holder = slugHolders.find((s) => s.slug === d.slug);
    if (!holder) return null;
    const mine = holder.status === "proposed" && holder.proposedBy === agentId;
    if (holder.status === "rejected" || mine) {
      if (!siblings.includes(holder)) throw new TroupeError("bad_request", `${kind} ${d.slug}: the slug is taken by a ${kind} elsewhere in the initiative`);
      return holder;
    }
    throw new TroupeError("bad_request", `${kind} ${d.slug}: the slug is taken by ${kind} ${holder.id} (${holder.status})`);
  });
  const removed = siblings.filter((s) => s.revise && s.proposedBy === agentId && !replaces.includes(s));
  const ids = drafts.map((_, i) => replaces[i]?.id ?? newId(kind === "phase" ? "ph" : "tk"));
  const kept = siblings.filter((s) => !removed.includes(s) && !replaces.includes(s));
  const local = new Map<string, string>();
  for (const s of kept) local.set(s.slug, s.id).set(s.id, s.id);
  drafts.forEach((d, i) => local.set(d.slug, ids[i]!).set(ids[i]!, ids[i]!));
  const resolved = resolveRefs(
    drafts.map((d, i) => ({ id: ids[i]!, label: d.slug, dependsOn: d.dependsOn })),
    { local, elsewhere, kind, where },
  );
  const gone = new Set(removed.map((r) => r.id));
  const graph: Node[] = [...kept.map((s) => ({ id: s.id, label: s.slug, dependsOn: s.dependsOn.filter((x) => !gone.has(x)) })), ...resolved];
  assertAcyclic(graph, kind);
  // stored in dependency order, so that every edge points at a row that exists
  const order = dependencyOrder(resolved.map((n, i) => ({ id: n.id, dependsOn: n.dependsOn, createdAt: i }))).map((n) => ids.indexOf(n.id));
  drafts.forEach((d, i) => (d.dependsOn = resolved[i]!.dependsOn));
  return { ids, replaces, removed, order };
}

/** The proposal sink over the store: validates whole sets, stores them in one transaction, then publishes. */
export class Proposals implements ProposalSink {
  constructor(private readonly d: WorkDeps) {}

  private initiativeOf(id: string): InitiativeRecord {
    const init = this.d.store.initiatives.find(id);
    if (!init) throw new TroupeError("not_found", `no initiative '${id}'`);
    if (init.status === "archived") throw new TroupeError("invalid_state", `initiative ${init.slug} is archived`);
    return init;
  }

  /** Refuses a session imported already: before the set is checked, so that is the error given. */
  private refuseImported(agentId: string | null, session: number | undefined): void {
    if (session !== undefined && agentId !== null && this.d.store.modeImports.has(agentId, session)) throw this.imported(agentId, session);
  }

  /** Records `session` of `agentId` as imported, inside the set's transaction: both commit or neither. */
  private markImported(agentId: string | null, session: number | undefined): void {
    if (session !== undefined && agentId !== null && !this.d.store.modeImports.add(agentId, session)) throw this.imported(agentId, session);
  }

  private imported(agentId: string, session: number): TroupeError {
    return new TroupeError("conflict", `the outputs of session ${session} of agent ${agentId} were imported already`);
  }

  proposePhases(initiativeId: string, agentId: string | null, drafts: PhaseDraft[], session?: number): Phase[] {
    const { store } = this.d;
    this.refuseImported(agentId, session);
    const init = this.initiativeOf(initiativeId);
    const existing = store.phases.list(init.id);
    const copies = drafts.map((d) => ({ ...d, dependsOn: [...d.dependsOn] }));
    const elsewhere = (ref: string) => {
      const p = store.phases.find(ref);
      return p && p.initiativeId !== init.id ? `initiative ${store.initiatives.get(p.initiativeId)?.slug ?? p.initiativeId}` : null;
    };
    const plan = planDrafts("phase", copies, agentId, existing, existing, elsewhere, `initiative ${init.slug}`);
    const status = init.review === "none" ? "approved" : "proposed";
    const changes: Change[] = [];
    store.db.transaction(() => {
      this.markImported(agentId, session);
      for (const r of plan.removed) {
        store.phases.delete(r.id);
        changes.push({ kind: "phase-removed", id: r.id });
      }
      for (const i of plan.order) {
        const d = copies[i]!;
        const old = plan.replaces[i] as PhaseRecord | null;
        const fields = { title: d.title.trim(), content: d.body, status, proposedBy: agentId, dependsOn: d.dependsOn } as const;
        if (old) {
          assertTransition("phase", old.slug, old.status, status);
          changes.push({ kind: "phase", created: false, rec: store.phases.update(old.id, { ...fields, reason: null, revise: false }) });
        } else {
          changes.push({ kind: "phase", created: true, rec: store.phases.insert({ ...fields, id: plan.ids[i]!, initiativeId: init.id, slug: d.slug }) });
        }
      }
    })();
    publish(this.d.bus, changes);
    return plan.ids.map((id) => toPhase(store.phases.get(id)!));
  }

  proposeTasks(phaseId: string, agentId: string | null, drafts: TaskDraft[], session?: number): Task[] {
    const { store } = this.d;
    this.refuseImported(agentId, session);
    const phase = store.phases.find(phaseId);
    if (!phase) throw new TroupeError("not_found", `no phase '${phaseId}'`);
    const init = this.initiativeOf(phase.initiativeId);
    if (phase.status === "rejected" || phase.status === "completed") {
      throw new TroupeError("invalid_state", `phase ${phase.slug} is ${phase.status}; it takes no new tasks`);
    }
    const all = store.tasks.listByInitiative(init.id);
    const siblings = all.filter((t) => t.phaseId === phase.id);
    const copies = drafts.map((d) => ({ ...d, dependsOn: [...d.dependsOn] }));
    const elsewhere = (ref: string) => {
      const t = store.tasks.find(ref) ?? (ref.includes("/") ? null : all.find((x) => x.slug === ref) ?? null);
      if (!t || t.phaseId === phase.id) return null;
      return `phase ${store.phases.get(t.phaseId)?.slug ?? t.phaseId}`;
    };
    const plan = planDrafts("task", copies, agentId, all, siblings, elsewhere, `phase ${phase.slug}`);
    const status = init.review === "tasks" ? "proposed" : "pending";
    const changes: Change[] = [];
    store.db.transaction(() => {
      this.markImported(agentId, session);
      for (const r of plan.removed) {
        store.tasks.delete(r.id);
        changes.push({ kind: "task-removed", id: r.id });
      }
      for (const i of plan.order) {
        const d = copies[i]!;
        const old = plan.replaces[i] as TaskRecord | null;
        const fields = { title: d.title.trim(), description: d.body, status, proposedBy: agentId, dependsOn: d.dependsOn, files: d.files ?? null } as const;
        if (old) {
          assertTransition("task", old.slug, old.status, status);
          changes.push({ kind: "task", created: false, rec: store.tasks.update(old.id, { ...fields, reason: null, revise: false }) });
        } else {
          const rec = store.tasks.insert({ ...fields, id: plan.ids[i]!, initiativeId: init.id, phaseId: phase.id, slug: d.slug });
          changes.push({ kind: "task", created: true, rec });
        }
      }
    })();
    publish(this.d.bus, changes);
    return plan.ids.map((id) => toTask(store.tasks.get(id)!));
  }

  proposeGoal(initiativeId: string, agentId: string, goal: string, session?: number): Initiative {
    const { store } = this.d;
    this.refuseImported(agentId, session);
    const init = this.initiativeOf(initiativeId);
    if (!goal.trim()) throw new TroupeError("bad_request", `the revised goal of initiative ${init.slug} is empty`);
    const rec = store.db.transaction(() => {
      this.markImported(agentId, session);
      return store.initiatives.update(init.id, { proposedGoal: goal, proposedGoalBy: agentId });
    })();
    publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
    return toInitiative(rec);
  }
}
