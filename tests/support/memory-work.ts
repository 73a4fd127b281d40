import { TroupeError } from "../../src/errors.ts";
import type { Initiative, Phase, Task } from "../../src/protocol/work.ts";
import type { PhaseDraft, TaskDraft } from "../../src/work/proposal-sink.ts";
import type { ModeWork } from "../../src/work/work-reader.ts";

/**
 * The work model as the mode service sees it, in memory: stands in for work-core's WorkService
 * (its store and DAG rules) until both land. Records every call so tests see exactly what was
 * handed over; refuses an unknown dependency as the real one does.
 */
export class MemoryWork implements ModeWork {
  readonly initiatives: Initiative[] = [];
  readonly phaseList: Phase[] = [];
  readonly taskList: Task[] = [];
  readonly calls: { method: "proposePhases" | "proposeTasks" | "proposeGoal"; target: string; agentId: string | null; drafts: unknown }[] = [];
  private n = 0;

  addInitiative(slug: string, goal: string): Initiative {
    const now = Date.now();
    const i: Initiative = { id: `in_${slug}`, name: slug, slug, goal, status: "active", baseRef: "main", branch: `troupe-initiative/${slug}`, review: "phases", dispatch: null, version: 1, createdAt: now, updatedAt: now };
    this.initiatives.push(i);
    return i;
  }

  addPhase(initiativeId: string, slug: string, status: Phase["status"]): Phase {
    const now = Date.now();
    const p: Phase = { id: `ph_${++this.n}`, initiativeId, slug, title: `Phase ${slug}`, content: `Build ${slug}.`, status, dependsOn: [], proposedBy: null, reason: null, version: 1, createdAt: now, updatedAt: now };
    this.phaseList.push(p);
    return p;
  }

  initiative(ref: string): Initiative {
    const i = this.initiatives.find((x) => x.id === ref || x.slug === ref);
    if (!i) throw new TroupeError("not_found", `no initiative '${ref}'`);
    return i;
  }
  phase(ref: string): Phase {
    const p = this.phaseList.find((x) => x.id === ref || `${this.initiative(x.initiativeId).slug}/${x.slug}` === ref);
    if (!p) throw new TroupeError("not_found", `no phase '${ref}'`);
    return p;
  }
  task(ref: string): Task {
    const t = this.taskList.find((x) => x.id === ref);
    if (!t) throw new TroupeError("not_found", `no task '${ref}'`);
    return t;
  }
  phases(initiativeId: string): Phase[] {
    return this.phaseList.filter((p) => p.initiativeId === initiativeId);
  }
  tasks(phaseId: string): Task[] {
    return this.taskList.filter((t) => t.phaseId === phaseId);
  }

  proposePhases(initiativeId: string, agentId: string | null, drafts: PhaseDraft[]): Phase[] {
    const existing = this.phases(initiativeId);
    const known = new Set([...drafts.map((d) => d.slug), ...existing.map((p) => p.slug), ...existing.map((p) => p.id)]);
    for (const d of drafts) {
      const unknown = d.dependsOn.find((s) => !known.has(s));
      if (unknown) throw new TroupeError("bad_request", `phase '${d.slug}' depends on '${unknown}', which is no phase of this plan or initiative`);
    }
    this.calls.push({ method: "proposePhases", target: initiativeId, agentId, drafts });
    const now = Date.now();
    const made = drafts.map((d): Phase => ({ id: `ph_${++this.n}`, initiativeId, slug: d.slug, title: d.title, content: d.body, status: "proposed", dependsOn: [], proposedBy: agentId, reason: null, version: 1, createdAt: now, updatedAt: now }));
    this.phaseList.push(...made);
    return made;
  }
  proposeTasks(phaseId: string, agentId: string | null, drafts: TaskDraft[]): Task[] {
    this.calls.push({ method: "proposeTasks", target: phaseId, agentId, drafts });
    return [];
  }
  proposeGoal(initiativeId: string, agentId: string, goal: string): Initiative {
    this.calls.push({ method: "proposeGoal", target: initiativeId, agentId, drafts: goal });
    return this.initiative(initiativeId);
  }
}
