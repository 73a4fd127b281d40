import type { Initiative, Phase, Task } from "../protocol/work.ts";
export interface PhaseDraft { slug: string; title: string; body: string; dependsOn: string[] /* slugs of this set or existing phase slugs/ids */ }
export interface TaskDraft { slug: string; title: string; body: string; dependsOn: string[] }
export interface ProposalSink {
  /** All or nothing: validates the whole set (slugs unique, DAG) and stores them `proposed` (or `approved` when the review policy is `none`), publishing events; throws TroupeError('bad_request', ...) naming the draft and problem. */
  proposePhases(initiativeId: string, agentId: string | null, drafts: PhaseDraft[]): Phase[];
  /** Same for the tasks of one phase; tasks are auto-approved (`pending`) unless the policy is `tasks`. */
  proposeTasks(phaseId: string, agentId: string | null, drafts: TaskDraft[]): Task[];
  /** A refine agent's revised goal, kept as a proposal on the initiative until accepted or rejected. */
  proposeGoal(initiativeId: string, agentId: string, goal: string): Initiative;
}
