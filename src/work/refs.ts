import { TroupeError } from "../errors.ts";
import type { Store } from "../store/index.ts";
import type { InitiativeRecord } from "../store/initiatives.ts";
import type { PhaseRecord } from "../store/phases.ts";
import type { TaskRecord } from "../store/tasks.ts";

/**
 * How the person names work: an initiative by its id or slug; a phase by its id or
 * `<initiative-slug>/<slug>`; a task by its id, `<initiative-slug>/<slug>` (task slugs are unique
 * in their initiative) or `<initiative-slug>/<phase-slug>/<slug>`.
 */
export type WorkItem =
  | { kind: "initiative"; rec: InitiativeRecord }
  | { kind: "phase"; rec: PhaseRecord }
  | { kind: "task"; rec: TaskRecord };

export function resolveInitiative(store: Store, ref: string): InitiativeRecord {
  const rec = store.initiatives.find(ref);
  if (!rec) throw new TroupeError("not_found", `no initiative '${ref}' (give its id or slug; 'troupe initiative ls' lists them)`);
  return rec;
}

export function resolvePhase(store: Store, ref: string): PhaseRecord {
  const rec = store.phases.find(ref);
  if (!rec) throw new TroupeError("not_found", `no phase '${ref}' (give its id or INITIATIVE/SLUG)`);
  return rec;
}

export function resolveTask(store: Store, ref: string): TaskRecord {
  const rec = store.tasks.find(ref);
  if (!rec) throw new TroupeError("not_found", `no task '${ref}' (give its id or INITIATIVE/SLUG)`);
  return rec;
}

/** Whatever `ref` names; `<initiative>/<slug>` held by both a phase and a task is refused as ambiguous. */
export function resolveItem(store: Store, ref: string): WorkItem {
  if (!ref.includes("/")) {
    if (ref.startsWith("ph_")) return { kind: "phase", rec: resolvePhase(store, ref) };
    if (ref.startsWith("tk_")) return { kind: "task", rec: resolveTask(store, ref) };
    const init = store.initiatives.find(ref);
    if (init) return { kind: "initiative", rec: init };
    throw new TroupeError("not_found", `no initiative, phase or task '${ref}' (a phase or task is ID or INITIATIVE/SLUG)`);
  }
  const phase = ref.split("/").length === 2 ? store.phases.find(ref) : null;
  const task = store.tasks.find(ref);
  if (phase && task) {
    const phaseSlug = store.phases.get(task.phaseId)?.slug ?? task.phaseId;
    const [init] = ref.split("/");
    throw new TroupeError("bad_request", `'${ref}' names both a phase and a task; say ${phase.id} for the phase, ${init}/${phaseSlug}/${task.slug} for the task`);
  }
  if (phase) return { kind: "phase", rec: phase };
  if (task) return { kind: "task", rec: task };
  throw new TroupeError("not_found", `no phase or task '${ref}'`);
}
