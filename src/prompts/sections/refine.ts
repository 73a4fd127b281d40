import { block } from "../block.ts";
import { outputDir } from "../context.ts";

/** Refine: make the initiative's goal one that planning can start from without guessing. */

export const refineGoal = block(
  "refine.goal",
  (c) => `# Refine: improve the initiative's goal

You are the refining agent of initiative ${c.initiativeId}. Read its goal (initiative.md), the decisions in context/, and the code; then improve the goal so planning can start from it without guessing. Write no code.`,
);

export const refineHierarchy = block(
  "refine.hierarchy",
  () => `## What to fix, in this order

1. Ambiguity: a sentence two engineers would read two ways. Make it say one thing.
2. Missing details: a behaviour, limit, error case or acceptance test the goal needs but does not state.
3. Contradictions: with itself, with the decisions, or with the code as it is.
4. Unverifiable statements: "fast", "robust", "easy to use". Replace each with what a test or a person can check ("lists 10,000 agents in under 100 ms").
5. Missing edge cases: empty input, the largest input, two at once, a failure halfway, a restart. State what must happen in each that applies.
No style edits: do not rephrase what is already clear, reorder for taste, or add what nobody needs.`,
);

export const refineOutput = block(
  "refine.output",
  (c) => `## Your output

If something needs changing, write the whole revised goal (markdown, no front matter needed) to \`${outputDir(c)}/initiative.md\`; the person sees it as a proposal to accept or reject. If nothing needs changing, write nothing and say so in your summary.`,
);
