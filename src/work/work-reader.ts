import type { Initiative, Phase, Task } from "../protocol/work.ts";
import type { ProposalSink } from "./proposal-sink.ts";

/**
 * What mode runs read of the work model: the WorkService answers it (work-core's store). Refs as
 * the issue gives them: an initiative by id or slug, a phase or task by id or `<initiative-slug>/<slug>`;
 * an unknown ref throws a TroupeError with a `*_not_found` code.
 */
export interface WorkReader {
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
