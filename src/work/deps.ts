import type { Agent } from "../protocol/entities.ts";
import type { EventBus } from "../events/bus.ts";
import type { Store } from "../store/index.ts";
import { toInitiative, type InitiativeRecord } from "../store/initiatives.ts";
import { toPhase, type PhaseRecord } from "../store/phases.ts";
import { toTask, type TaskRecord } from "../store/tasks.ts";

/** What the work model needs of the agents (the resume use case): sending a proposing agent back to revise. */
interface AgentResumer {
  canResume(ref: string): boolean;
  resumeWith(ref: string, prompt: string): Promise<Agent>;
}

export interface WorkDeps {
  /** The workspace's git toplevel: initiative branches live there. */
  root: string;
  store: Store;
  bus: EventBus;
  agents: AgentResumer;
}

/** One change to publish once its transaction committed. */
export type Change =
  | { kind: "initiative"; created: boolean; rec: InitiativeRecord }
  | { kind: "phase"; created: boolean; rec: PhaseRecord }
  | { kind: "task"; created: boolean; rec: TaskRecord }
  | { kind: "phase-removed"; id: string }
  | { kind: "task-removed"; id: string };

/** Publishes changes in order, after their transaction: the event log never holds a change the store lacks. */
export function publish(bus: EventBus, changes: Change[]): void {
  for (const c of changes) {
    switch (c.kind) {
      case "initiative":
        bus.publish({ type: c.created ? "initiative:created" : "initiative:updated", initiative: toInitiative(c.rec) });
        break;
      case "phase":
        bus.publish({ type: c.created ? "phase:created" : "phase:updated", phase: toPhase(c.rec) });
        break;
      case "task":
        bus.publish({ type: c.created ? "task:created" : "task:updated", task: toTask(c.rec) });
        break;
      case "phase-removed":
        bus.publish({ type: "phase:removed", phaseId: c.id });
        break;
      case "task-removed":
        bus.publish({ type: "task:removed", taskId: c.id });
        break;
    }
  }
}
