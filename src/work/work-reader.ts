import type { Initiative, Phase, Task } from "../protocol/work.ts";
import type { Store } from "../store/index.ts";
import { toPhase } from "../store/phases.ts";
import { toTask } from "../store/tasks.ts";
import type { ProposalSink } from "./proposal-sink.ts";
import type { WorkService } from "./service.ts";

/**
 * What mode runs read of the work model. Refs as the person gives them: an initiative by id or
 * slug, a phase or task by id or `<initiative-slug>/<slug>`; an unknown ref throws a TroupeError
 * with code `not_found`.
 */
interface WorkReader {
  initiative(ref: string): Initiative;
  phase(ref: string): Phase;
  task(ref: string): Task;
  /** Every phase of the initiative, in creation order. */
  phases(initiativeId: string): Phase[];
  /** Every task of the phase, in creation order. */
  tasks(phaseId: string): Task[];
}

/** The work model as the mode service needs it: read it, and hand it proposals. */
export type ModeWork = WorkReader & ProposalSink;

/** The WorkService and its store as ModeWork: records become what clients see (no `revise`). */
export function modeWorkOver(work: WorkService, store: Store): ModeWork {
  return {
    initiative: (ref) => work.initiative(ref),
    phase: (ref) => toPhase(work.phase(ref)),
    task: (ref) => toTask(work.task(ref)),
    phases: (initiativeId) => store.phases.list(initiativeId).map(toPhase),
    tasks: (phaseId) => store.tasks.listByPhase(phaseId).map(toTask),
    proposePhases: (initiativeId, agentId, drafts, session) => work.proposePhases(initiativeId, agentId, drafts, session),
    proposeTasks: (phaseId, agentId, drafts, session) => work.proposeTasks(phaseId, agentId, drafts, session),
    proposeGoal: (initiativeId, agentId, goal, session) => work.proposeGoal(initiativeId, agentId, goal, session),
  };
}
