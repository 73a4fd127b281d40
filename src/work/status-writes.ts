import type { EventBus } from "../events/bus.ts";
import type { PhaseStatus, TaskStatus } from "../protocol/work.ts";
import type { Store } from "../store/index.ts";
import type { PhaseRecord } from "../store/phases.ts";
import type { TaskPatch, TaskRecord } from "../store/tasks.ts";
import { publish } from "./deps.ts";
import { assertTransition } from "./transitions.ts";

/** Dispatch's writes of tasks and phases: each status change through the transition table, then published. */
export class StatusWrites {
  constructor(private readonly d: { store: Store; bus: EventBus }) {}

  task(task: TaskRecord, patch: TaskPatch & { status?: TaskStatus }): TaskRecord {
    if (patch.status && patch.status !== task.status) assertTransition("task", task.slug, task.status, patch.status);
    const rec = this.d.store.tasks.update(task.id, patch);
    publish(this.d.bus, [{ kind: "task", created: false, rec }]);
    return rec;
  }

  /** Reads the phase again: the plan's copy may be a step behind. */
  phase(phase: PhaseRecord, status: PhaseStatus, reason: string | null): void {
    const now = this.d.store.phases.get(phase.id);
    if (!now) return;
    if (now.status !== status) assertTransition("phase", now.slug, now.status, status);
    const rec = this.d.store.phases.update(phase.id, { status, reason });
    publish(this.d.bus, [{ kind: "phase", created: false, rec }]);
  }
}
