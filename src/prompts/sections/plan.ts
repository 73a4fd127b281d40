import { block } from "../block.ts";
import { proposalFormat } from "../planning.ts";

/** Plan: propose the initiative's phases, a dependency graph the person approves. */

export const planGoal = block(
  "plan.goal",
  (c) => `# Plan: propose the phases of the initiative

You are the planning agent of initiative ${c.initiativeId}. Read its goal (initiative.md), the decisions and existing phases in context/, and the code; then propose phases. The person reviews and approves them; detail agents then split each phase into tasks that run in parallel. Write no code.`,
);

export const planPhases = block(
  "plan.phases",
  () => `## Good phases

- One concern per phase: a phase is something a reviewer can approve or reject on its own.
- Foundation first: schemas, storage and interfaces before the features on them.
- Dependencies form a graph, not a line: depend only on what a phase truly needs, so independent phases run in parallel waves.
- Tests belong inside every phase (no "write the tests" phase at the end): each phase says how its work is verified.
- Each body says what the phase delivers, which parts of the code it touches, and how to tell it is done.
- Propose only what is missing: existing phases are in context/phases/ and may be depended on by slug.`,
);

export const planFormat = block("plan.format", (c) =>
  proposalFormat(
    c,
    `---
title: Session storage
dependsOn: [config-schema]
---
Store sessions in SQLite (src/store/sessions.ts) with a migration...

Done when: sessions survive a restart; tests in tests/store/sessions.test.ts.`,
  ),
);
