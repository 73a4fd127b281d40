import { TroupeError } from "../errors.ts";
import type { InitiativeStatus, PhaseStatus, TaskStatus } from "../protocol/work.ts";

/**
 * Every status change the work model allows, as one table per entity (as src/protocol/status.ts
 * is for agents). Whoever changes a status (the person's commands here, dispatch and merging
 * later) goes through `assertTransition`, so a change the table lacks is a bug caught at once,
 * not a state nobody planned for. Proposals enter as `proposed` (or already approved, per the
 * review policy): that is creation, not a transition. A rejected item may be proposed again.
 */
export const PHASE_TRANSITIONS: Readonly<Record<PhaseStatus, readonly PhaseStatus[]>> = {
  proposed: ["approved", "rejected", "proposed"],
  // approved by the person (or by policy); dispatch starts it once its dependencies completed
  approved: ["in_progress", "blocked"],
  in_progress: ["completed", "blocked"],
  // blocked: a task of it cannot go on until the person acts (retry goes through the task)
  blocked: ["in_progress", "approved"],
  completed: [],
  // a revised proposal takes its place (same id, so dependencies on it still hold)
  rejected: ["proposed", "approved"],
};

export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  proposed: ["pending", "rejected", "proposed"],
  // pending: approved or auto-approved, waiting for its dependencies and a free slot
  pending: ["in_progress"],
  // in_progress → pending: its run was lost before it did anything (dispatch starts it again)
  in_progress: ["completed", "failed", "blocked", "pending"],
  // retried by the person once they fixed what stopped it
  blocked: ["pending", "in_progress"],
  failed: ["pending"],
  completed: [],
  rejected: ["proposed", "pending"],
};

export const INITIATIVE_TRANSITIONS: Readonly<Record<InitiativeStatus, readonly InitiativeStatus[]>> = {
  active: ["completed", "archived"],
  completed: ["archived", "active"],
  archived: [],
};

const TABLES = { phase: PHASE_TRANSITIONS, task: TASK_TRANSITIONS, initiative: INITIATIVE_TRANSITIONS } as const;
type Kind = keyof typeof TABLES;
type StatusOf<K extends Kind> = keyof (typeof TABLES)[K] & string;

export function canTransition<K extends Kind>(kind: K, from: StatusOf<K>, to: StatusOf<K>): boolean {
  const table = TABLES[kind] as Record<string, readonly string[]>;
  return table[from]?.includes(to) ?? false;
}

/** Throws `invalid_state` (409) naming the item, its status and what it may become. */
export function assertTransition<K extends Kind>(kind: K, label: string, from: StatusOf<K>, to: StatusOf<K>): void {
  if (canTransition(kind, from, to)) return;
  const table = TABLES[kind] as Record<string, readonly string[]>;
  const next = table[from] ?? [];
  const may = next.length ? `from ${from} it may become ${next.join(" or ")}` : `${from} is final`;
  throw new TroupeError("invalid_state", `${kind} ${label} is ${from}; it cannot become ${to} (${may})`);
}
