import type { AgentMode } from "../protocol/work.ts";
import { joinBlocks, render, type RenderedBlock, type Slot } from "./block.ts";
import type { ModePromptContext } from "./context.ts";
import { checkpoints, fileOwnership, specificity } from "./planning.ts";
import { detailFormat, detailGoal, detailTasks } from "./sections/detail.ts";
import { discussDecisions, discussGoal, discussQuestions } from "./sections/discuss.ts";
import { executeGoal, executeSteps } from "./sections/execute.ts";
import { planFormat, planGoal, planPhases } from "./sections/plan.ts";
import { refineGoal, refineHierarchy, refineOutput } from "./sections/refine.ts";
import { input, listen, signal, talk } from "./shared.ts";
import { antiPatterns, codebase, context, deviations, git, scope } from "./working.ts";

export type { ModePromptContext, RenderedBlock };

/**
 * Each mode's prompt as data: its own blocks first (what the mode is for and how to do it well),
 * then the shared ones (input, how to work on the code, talking, listening, how to end). Only
 * plan, detail and execute run long enough to need `context`; only execute changes code.
 */
export const MODE_BLOCKS: Record<AgentMode, readonly Slot[]> = {
  discuss: [discussGoal, discussQuestions, discussDecisions, input, codebase, talk, listen, signal],
  plan: [planGoal, planPhases, specificity, fileOwnership, planFormat, input, codebase, context, talk, listen, signal],
  detail: [detailGoal, detailTasks, specificity, fileOwnership, checkpoints, detailFormat, input, codebase, context, talk, listen, signal],
  execute: [executeGoal, executeSteps, scope, deviations, antiPatterns, input, codebase, context, git, talk, listen, signal],
  refine: [refineGoal, refineHierarchy, refineOutput, input, codebase, talk, listen, signal],
};

/** A mode run's prompt, block by block (`troupe prompt --json`). */
export function modePromptBlocks(c: ModePromptContext): RenderedBlock[] {
  return render(MODE_BLOCKS[c.mode], c);
}

/** A mode run's whole prompt: what the spawn sends and `troupe prompt` prints. */
export function buildModePrompt(c: ModePromptContext): string {
  return joinBlocks(modePromptBlocks(c));
}
