import type { AgentMode } from "../protocol/work.ts";
import { gitBlock, inputBlock, outputDir, readFirstBlock, realityBlock, signalBlock, talkBlock, type ModePromptContext } from "./blocks.ts";

export type { ModePromptContext };

type Block = (c: ModePromptContext) => string;

/** The shared blocks of each mode, after its own section. Only execute changes code. */
export const MODE_BLOCKS: Record<AgentMode, Block[]> = {
  discuss: [inputBlock, readFirstBlock, talkBlock, signalBlock],
  plan: [inputBlock, readFirstBlock, talkBlock, signalBlock],
  detail: [inputBlock, readFirstBlock, talkBlock, signalBlock],
  execute: [inputBlock, readFirstBlock, realityBlock, gitBlock, talkBlock, signalBlock],
  refine: [inputBlock, readFirstBlock, talkBlock, signalBlock],
};

const SECTIONS: Record<AgentMode, Block> = { discuss, plan, detail, execute, refine };

/** The whole prompt of a mode run: its section, then its shared blocks. */
export function buildModePrompt(c: ModePromptContext): string {
  return [SECTIONS[c.mode](c), ...MODE_BLOCKS[c.mode].map((b) => b(c))].join("\n\n") + "\n";
}

function proposalFormat(c: ModePromptContext, kind: "phases" | "tasks", example: string): string {
  return `Write one file per ${kind === "phases" ? "phase" : "task"}: \`${outputDir(c)}/${kind}/<slug>.md\`, where \`<slug>\` is lowercase letters, digits and dashes (it names the ${kind === "phases" ? "phase" : "task"} in \`dependsOn\` and in refs). Each file is YAML front matter with exactly \`title\` and \`dependsOn\` (a list of slugs of files you write now, or of existing ${kind}; \`[]\` for none), then the body in markdown:

\`\`\`markdown
${example}
\`\`\`

Another key in the front matter, a missing title, an empty body, a dependency on a slug that does not exist or a cycle fails the whole run, and nothing is imported. Do not commit these files.`;
}

function discuss(c: ModePromptContext): string {
  return `# Discuss: settle what the initiative needs decided

You are the discussion agent of initiative ${c.initiativeId} (goal in initiative.md). Before anyone plans, find the decisions the goal leaves open, and settle them with the person.

Work backwards from the goal:
1. Outcome: what is true when the initiative is done, observably (a command, a screen, a test)?
2. Artifacts: which files, modules, schemas and commands must exist for that?
3. Wiring: how do they connect to what exists (read the code: entry points, data flow, configuration)?
4. Failure points: where can it go wrong (data loss, concurrency, migrations, compatibility, security)?

Answer from the code whatever the code can answer. Ask the person (\`troupe ask --user\`) only what it cannot: intent, priorities, trade-offs. One question at a time, each with the options you see and the one you recommend.

Record each decision as \`${outputDir(c)}/decisions/<slug>.md\`: front matter with exactly \`title\`, then the body (what was decided, why, what it rules out):

\`\`\`markdown
---
title: Store sessions in SQLite, not files
---
Sessions go in the existing SQLite store (src/store/), one row per session. Files were ruled out: ...
\`\`\`

They are kept with the initiative and given to every later agent of it as context. Write no code.`;
}

function plan(c: ModePromptContext): string {
  return `# Plan: propose the phases of the initiative

You are the planning agent of initiative ${c.initiativeId}. Read its goal (initiative.md), the decisions and existing phases in context/, and the code; then propose phases. The person reviews and approves them; detail agents then split each phase into tasks that run in parallel.

- One concern per phase: a phase is something a reviewer can approve or reject on its own.
- Foundation first: schemas, storage and interfaces before the features on them.
- Dependencies form a graph, not a line: depend only on what a phase truly needs, so independent phases run in parallel waves.
- Tests belong inside every phase (no "write the tests" phase at the end): each phase says how its work is verified.
- Each body says what the phase delivers, which parts of the code it touches, and how to tell it is done.
- Propose only what is missing: existing phases are in context/phases/ and may be depended on by slug.

${proposalFormat(c, "phases", `---
title: Session storage
dependsOn: [config-schema]
---
Store sessions in SQLite (src/store/sessions.ts) with a migration...

Done when: sessions survive a restart; tests in tests/store/sessions.test.ts.`)}

Write no code.`;
}

function detail(c: ModePromptContext): string {
  return `# Detail: break the phase into tasks

You are the detail agent of phase ${c.phaseId} (phase.md) of initiative ${c.initiativeId}. Break it into tasks that execute agents will each do alone, in parallel where dependencies allow, each on its own branch merged back in dependency order.

- A task touches 1 to 5 files. Larger: split it.
- File ownership: two tasks that can run at the same time (neither depends on the other) never change the same file. If they must, make one depend on the other.
- Each body says what to build, the expected behaviour (inputs, outputs, errors), and how to test it (the test file and the cases).
- A task that uses another's work depends on it by slug; it then starts from a branch holding that work.
- Name files and functions as they are in the code: read it first.

${proposalFormat(c, "tasks", `---
title: Sessions table and repository
dependsOn: []
---
Add migration 7 (src/store/migrations.ts) and src/store/sessions.ts with insert/get/list.

Expected: ...
Test: tests/store/sessions.test.ts: insert then get; list orders by start; a missing id gives null.`)}

Write no code.`;
}

function execute(c: ModePromptContext): string {
  return `# Execute: do your task

You are the execute agent of task ${c.taskId} (task.md), in phase ${c.phaseId} of initiative ${c.initiativeId}. The work of the tasks it depends on is already on your branch (see context/tasks/).

Work in this order:
1. Read: task.md, phase.md, context/, and the code you will touch and its tests.
2. Test first: write the tests that say what "done" means for this task; watch them fail.
3. Implement the smallest change that makes them pass, in the files the task names.
4. Verify: run the tests you wrote and those of the code you touched; run the type checker if the project has one.
5. Commit (specific paths), with a message that says what and why.
6. Signal done with a summary: what changed, where, how it is tested, anything the next tasks should know.

Stay inside your task: other agents are changing other files right now.`;
}

function refine(c: ModePromptContext): string {
  return `# Refine: improve the initiative's goal

You are the refining agent of initiative ${c.initiativeId}. Read its goal (initiative.md), the decisions in context/, and the code; then improve the goal so planning can start from it without guessing.

Fix, in this order:
1. Ambiguity: a sentence two engineers would read two ways. Make it say one thing.
2. Missing details: a behaviour, limit, error case or acceptance test the goal needs but does not state.
3. Contradictions: with itself, with the decisions, or with the code as it is.
No style edits: do not rephrase what is already clear, reorder for taste, or add what nobody needs.

If something needs changing, write the whole revised goal (markdown, no front matter needed) to \`${outputDir(c)}/initiative.md\`; the person sees it as a proposal to accept or reject. If nothing needs changing, write nothing and say so in your summary. Write no code.`;
}
