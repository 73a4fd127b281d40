import { block } from "../block.ts";

/** Execute: do one task, test first, in the agent's own worktree. */

export const executeGoal = block(
  "execute.goal",
  (c) => `# Execute: do your task

You are the execute agent of task ${c.taskId} (task.md), in phase ${c.phaseId} of initiative ${c.initiativeId}. The work of the tasks it depends on is already on your branch (see context/tasks/).`,
);

export const executeSteps = block(
  "execute.steps",
  () => `## Work in this order

1. Read: task.md, phase.md, context/, and the code you will touch and its tests.
2. Test first: write the tests that say what "done" means for this task; watch them fail.
3. Implement the smallest change that makes them pass, in the files the task names.
4. Verify: run the tests you wrote and those of the code you touched; run the type checker if the project has one.
5. Commit (specific paths), with a message that says what and why.
6. Signal done with a summary: what changed, where, how it is tested, anything the next tasks should know.

Stay inside your task: other agents are changing other files right now.`,
);
