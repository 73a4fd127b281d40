import type { Initiative, Phase, Task } from "../protocol/work.ts";

/**
 * Where proposals land: what a plan, detail or refine agent's output files become once parsed
 * (src/work/proposals.ts reads them; WorkService stores them). `dependsOn` holds slugs of the
 * same set, or slugs/ids of existing items of the same initiative (phases) or phase (tasks).
 */
export interface PhaseDraft {
  slug: string;
  title: string;
  body: string;
  dependsOn: string[];
}

export interface TaskDraft extends PhaseDraft {
  /** The globs of the files it owns; null or absent: no list (src/work/file-ownership.ts). */
  files?: string[] | null;
}

/**
 * `session`, given with the agent: the agent session whose output files the set was read from.
 * It is recorded in the transaction that stores the set, and a second import of the same session
 * is refused (`conflict`) with nothing changed: a daemon that dies after that commit, before it
 * marks the run imported, cannot store the set twice.
 */
export interface ProposalSink {
  /** All or nothing: validates the whole set (slugs unique, DAG) and stores them `proposed` (or `approved` when the review policy is `none`), publishing events; throws TroupeError('bad_request', ...) naming the draft and problem. */
  proposePhases(initiativeId: string, agentId: string | null, drafts: PhaseDraft[], session?: number): Phase[];
  /** Same for the tasks of one phase; tasks are auto-approved (`pending`) unless the policy is `tasks`. */
  proposeTasks(phaseId: string, agentId: string | null, drafts: TaskDraft[], session?: number): Task[];
  /** A refine agent's revised goal, kept as a proposal on the initiative until accepted (approve the initiative id) or rejected. */
  proposeGoal(initiativeId: string, agentId: string, goal: string, session?: number): Initiative;
}
