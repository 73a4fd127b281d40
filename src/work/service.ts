import { newId } from "../agents/tokens.ts";
import type { InitiativeCreateRequestSchema, WorkItems } from "../protocol/api-work.ts";
import type { Initiative, Phase, PhaseTree, Task } from "../protocol/work.ts";
import type { z } from "zod";
import { branchDiff, branchExists, createBranch, initiativeBranch, resolveBase } from "../git/initiative-branch.ts";
import { toInitiative } from "../store/initiatives.ts";
import { toPhase, type PhaseRecord } from "../store/phases.ts";
import { toTask, type TaskRecord } from "../store/tasks.ts";
import { dependencyOrder } from "./dag.ts";
import { publish, type WorkDeps } from "./deps.ts";
import { Proposals } from "./propose.ts";
import type { PhaseDraft, ProposalSink, TaskDraft } from "./proposal-sink.ts";
import { resolveInitiative, resolveItem, resolvePhase, resolveTask } from "./refs.ts";
import { Approval, type ApproveOptions, type EditOptions, type RejectOptions } from "./approval.ts";
import { slugify, uniqueSlug } from "./slug.ts";
import { assertTransition } from "./transitions.ts";

export type InitiativeCreateOptions = z.output<typeof InitiativeCreateRequestSchema>;
export type { ApproveOptions, EditOptions, RejectOptions };

/**
 * The work model: initiatives, their phases and tasks, proposals into them and the person's
 * decisions on those. Every change is stored (with a new `version`) and then published as
 * `initiative:*` / `phase:*` / `task:*`, so clients follow it live and replay it after a restart.
 * Dispatch and merging build on this service; nothing here starts an agent except `reject --revise`.
 */
export class WorkService implements ProposalSink {
  private readonly proposals: Proposals;
  private readonly approval: Approval;
  /** Creations one at a time: a slug is checked free and then taken. */
  private creating: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: WorkDeps) {
    this.proposals = new Proposals(d);
    this.approval = new Approval(d);
  }

  /** A new initiative on its own branch `troupe-initiative/<slug>`, made from the base's commit now. */
  createInitiative(req: InitiativeCreateOptions): Promise<Initiative> {
    const run = this.creating.then(() => this.createNow(req));
    this.creating = run.catch(() => undefined);
    return run;
  }

  private async createNow(req: InitiativeCreateOptions): Promise<Initiative> {
    const { store, root } = this.d;
    const base = await resolveBase(root, req.baseRef);
    // the slug must be free in the store and as a branch (one an earlier store left behind)
    const slug = await uniqueSlug(slugify(req.name), async (s) => store.initiatives.slugTaken(s) || (await branchExists(root, initiativeBranch(s))));
    const branch = initiativeBranch(slug);
    await createBranch(root, branch, base.commit);
    const rec = store.initiatives.insert({
      id: newId("in"),
      name: req.name,
      slug,
      goal: req.goal,
      baseRef: base.ref,
      baseCommit: base.commit,
      branch,
      review: req.review,
      budgetUsd: req.budgetUsd ?? null,
      permissions: req.permissions ?? null,
    });
    publish(this.d.bus, [{ kind: "initiative", created: true, rec }]);
    return toInitiative(rec);
  }

  listInitiatives(): Initiative[] {
    return this.d.store.initiatives.list().map(toInitiative);
  }

  /** By id or slug. */
  initiative(ref: string): Initiative {
    return toInitiative(resolveInitiative(this.d.store, ref));
  }

  /** Out of the way (lists still show it); its branch and everything in it stay. */
  archive(ref: string): Initiative {
    const init = resolveInitiative(this.d.store, ref);
    if (init.status === "archived") return toInitiative(init);
    assertTransition("initiative", init.slug, init.status, "archived");
    const rec = this.d.store.initiatives.update(init.id, { status: "archived", dispatch: null });
    publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
    return toInitiative(rec);
  }

  /** A new limit over all its agents (`troupe initiative budget`): dispatch, woken by the update, goes on under it. */
  setBudget(ref: string, budgetUsd: number): Initiative {
    const init = resolveInitiative(this.d.store, ref);
    const rec = this.d.store.initiatives.update(init.id, { budgetUsd });
    publish(this.d.bus, [{ kind: "initiative", created: false, rec }]);
    return toInitiative(rec);
  }

  /** The initiative's phases in dependency order, each with its tasks (`troupe phases I --json`). */
  tree(ref: string): PhaseTree {
    const { store } = this.d;
    const init = resolveInitiative(store, ref);
    const tasks = store.tasks.listByInitiative(init.id);
    const agentName = (id: string | null) => (id === null ? null : (store.agents.get(id)?.name ?? null));
    return {
      initiative: toInitiative(init),
      phases: dependencyOrder(store.phases.list(init.id)).map((p) => ({
        id: p.id,
        slug: p.slug,
        title: p.title,
        status: p.status,
        dependsOn: p.dependsOn,
        reason: p.reason,
        pin: p.pin,
        tasks: dependencyOrder(tasks.filter((t) => t.phaseId === p.id)).map((t) => ({
          id: t.id,
          slug: t.slug,
          title: t.title,
          status: t.status,
          dependsOn: t.dependsOn,
          agent: agentName(t.agentId),
          branch: t.branch,
          summary: t.summary,
          reason: t.reason,
          conflicts: t.conflicts,
          files: t.files,
          waiting: t.waiting,
          host: t.host,
          placement: t.placement,
          pin: t.pin,
          lostRuns: t.lostRuns,
        })),
      })),
    };
  }

  /** Every phase and task of an initiative, whole (content included), oldest first. */
  items(ref: string): WorkItems {
    const init = resolveInitiative(this.d.store, ref);
    return {
      initiatives: [toInitiative(init)],
      phases: this.d.store.phases.list(init.id).map(toPhase),
      tasks: this.d.store.tasks.listByInitiative(init.id).map(toTask),
    };
  }

  /** One initiative, phase or task by its ref. */
  item(ref: string): WorkItems {
    const item = resolveItem(this.d.store, ref);
    if (item.kind === "initiative") return { initiatives: [toInitiative(item.rec)], phases: [], tasks: [] };
    if (item.kind === "phase") return { initiatives: [], phases: [toPhase(item.rec)], tasks: [] };
    return { initiatives: [], phases: [], tasks: [toTask(item.rec)] };
  }

  phase(ref: string): PhaseRecord {
    return resolvePhase(this.d.store, ref);
  }

  task(ref: string): TaskRecord {
    return resolveTask(this.d.store, ref);
  }

  /** The initiative branch against the commit it started from. */
  diff(ref: string): Promise<string> {
    const init = resolveInitiative(this.d.store, ref);
    return branchDiff(this.d.root, init.baseCommit, init.branch);
  }

  proposePhases(initiativeId: string, agentId: string | null, drafts: PhaseDraft[], session?: number): Phase[] {
    return this.proposals.proposePhases(initiativeId, agentId, drafts, session);
  }

  proposeTasks(phaseId: string, agentId: string | null, drafts: TaskDraft[], session?: number): Task[] {
    return this.proposals.proposeTasks(phaseId, agentId, drafts, session);
  }

  proposeGoal(initiativeId: string, agentId: string, goal: string, session?: number): Initiative {
    return this.proposals.proposeGoal(initiativeId, agentId, goal, session);
  }

  approve(req: ApproveOptions): WorkItems {
    return this.approval.approve(req);
  }

  reject(ref: string, req: RejectOptions): Promise<WorkItems> {
    return this.approval.reject(ref, req);
  }

  edit(ref: string, req: EditOptions): WorkItems {
    return this.approval.edit(ref, req);
  }

  pin(ref: string, host: string | null, hosts: readonly string[]): WorkItems {
    return this.approval.pin(ref, host, hosts);
  }

  retry(ref: string): Task {
    return this.approval.retry(ref);
  }
}
