import { block } from "../block.ts";
import { proposalFormat } from "../planning.ts";

/** Detail: break an approved phase into tasks that execute agents do alone, in parallel. */

export const detailGoal = block(
  "detail.goal",
  (c) => `# Detail: break the phase into tasks

You are the detail agent of phase ${c.phaseId} (phase.md) of initiative ${c.initiativeId}. Break it into tasks that execute agents will each do alone, in parallel where dependencies allow, each on its own branch merged back in dependency order. Write no code.`,
);

export const detailTasks = block(
  "detail.tasks",
  () => `## Good tasks

- A task changes 1 to 5 files; one that needs 7 or more is too big (its agent will stop and ask): split it.
- List the files it owns in \`files\`. Two tasks that edit the same file run one after the other; give each task files of its own where the work allows, so they run in parallel.
- Each body says what to build, the expected behaviour (inputs, outputs, errors), and how to test it (the test file and the cases).
- A task that uses another's work depends on it by slug; it then starts from a branch holding that work.
- Name files and functions as they are in the code: read it first.`,
);

export const detailFormat = block("detail.format", (c) =>
  proposalFormat(
    c,
    `---
title: Sessions table and repository
dependsOn: []
files: [src/store/migrations.ts, src/store/sessions.ts, tests/store/sessions.test.ts]
---
Add migration 7 (src/store/migrations.ts) and src/store/sessions.ts with insert/get/list.

Expected: ...
Test: tests/store/sessions.test.ts: insert then get; list orders by start; a missing id gives null.`,
  ),
);
