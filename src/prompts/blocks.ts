import { dirname, join } from "node:path";
import type { AgentMode } from "../protocol/work.ts";

/**
 * The shared blocks every mode prompt is composed from (src/prompts/modes.ts picks them per mode).
 * Each is a function of the run, so the agent reads its real id, name and paths, never a
 * placeholder it would have to guess.
 */
export interface ModePromptContext {
  id: string;
  name: string;
  mode: AgentMode;
  /** `.troupe/input` of its worktree, absolute. */
  inputDir: string;
  /** This troupe by absolute path (a login shell may reset PATH). */
  troupe: string;
  initiativeId: string;
  phaseId: string | null;
  taskId: string | null;
  /** The input files written for it, relative to `inputDir` (as manifest.json lists them). */
  files: string[];
}

/** A path as one shell word: quoted only when it has to be. */
export function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

export function outputDir(c: Pick<ModePromptContext, "inputDir">): string {
  return join(dirname(c.inputDir), "output");
}

/** What `done` means in each mode: what must exist before the agent signals it. */
const DONE_MEANS: Record<AgentMode, string> = {
  discuss: "your decision files are written (or you found nothing to decide)",
  plan: "every phase file is written; they are read the moment you signal, and a malformed one fails the whole run",
  detail: "every task file is written; they are read the moment you signal, and a malformed one fails the whole run",
  execute: "the task works, its tests pass and everything is committed",
  refine: "the revised goal is written, or you decided nothing needs changing (then write nothing)",
};

export function signalBlock(c: ModePromptContext): string {
  const t = shellWord(c.troupe);
  return `## How to end

End your run with exactly one of these shell commands, as your last action:
- \`${t} signal done --result "<one-paragraph summary>"\` once ${DONE_MEANS[c.mode]}.
- \`${t} signal questions --question "<question>" [--question "<another>"]\` when you cannot go on without the person's answers; you will be resumed with them, in this same worktree.
- \`${t} signal error --error "<what stops you>"\` when it cannot be done.
The signal is what troupe reads, not your last message. (\`${t}\` is also on your PATH as \`troupe\`.)`;
}

/** What each input file holds, listing only those present. */
const INPUT_FILES: [prefix: string, holds: string][] = [
  ["initiative.md", "the initiative: its goal (the body) and its id, title and branch (the front matter)"],
  ["phase.md", "the phase you work on: its content, id, title and the slugs of the phases it depends on"],
  ["task.md", "your task: what to build, expected behaviour, how to test it, and the slugs of the tasks it depends on"],
  ["context/phases/", "the initiative's other phases (read-only context: do not redo their work)"],
  ["context/tasks/", "the completed tasks of this phase with what their agents reported (their work is already on your branch)"],
  ["context/decisions/", "decisions taken in earlier discussions of this initiative: follow them"],
];

export function inputBlock(c: ModePromptContext): string {
  const lines = INPUT_FILES.filter(([prefix]) => c.files.some((f) => f === prefix || f.startsWith(prefix))).map(([prefix, holds]) => {
    const n = prefix.endsWith("/") ? c.files.filter((f) => f.startsWith(prefix)).length : 0;
    return `- \`${prefix}\`${n ? ` (${n} file${n === 1 ? "" : "s"})` : ""}: ${holds}`;
  });
  return `## Your input (read it first)

In \`${c.inputDir}\`, written by troupe for this run; each .md file has YAML front matter (\`id\`, \`title\`, \`dependsOn\`) and a markdown body:
${lines.join("\n")}
- \`manifest.json\`: your agent id, mode, the ids you work on and the list of these files.
Never commit anything under .troupe/: it is troupe's, not the project's.`;
}

export function talkBlock(c: ModePromptContext): string {
  const t = shellWord(c.troupe);
  const mine = [c.taskId && `task ${c.taskId}`, c.phaseId && `phase ${c.phaseId}`].filter(Boolean).join(", ");
  return `## Talking to the person and to other agents

You are agent "${c.name}" (id ${c.id})${mine ? `, working ${mine}` : ""} of initiative ${c.initiativeId}; others reach you as \`--to ${c.name}\`.
- \`${t} ask "<question>" --user\` asks the person and waits for the answer.
- \`${t} ask "<question>" --task <task id>\` or \`--phase <phase id>\` asks the agent working that task or phase (ids are in the front matter of your input files); \`--to <agent name>\` asks one agent.
- \`${t} listen\` prints the next question addressed to you as JSON ({"conversationId", "from", "question", ...}); answer it with \`${t} answer "<answer>" --conversation <conversationId>\`.
Ask only what you cannot find out yourself from the code, the input files or the history.`;
}

export function readFirstBlock(): string {
  return `## Read before you write

Read the code you are about to rely on or change before writing anything: the files, their tests, how they are called. Verify every assumption your input makes (a function exists, a file is where it says, a command works) against the code itself; your input was written before the latest work landed.`;
}

export function realityBlock(): string {
  return `## When reality differs from your task

- A small difference (a renamed function, a moved file, a missing helper): adapt, fix it, and say so in your summary.
- An architectural mismatch (the design the task assumes does not exist, or the change would break what other phases rely on): do not improvise a new architecture. Ask the person (\`troupe ask --user\`), or signal questions.`;
}

export function gitBlock(): string {
  return `## Git in your worktree

You work in your own git worktree on your own branch; other agents work on theirs in parallel.
- Commit early and often, with messages that say what changed and why.
- Stage specific paths (\`git add path/to/file\`), never \`git add -A\` or \`git add .\`: they would sweep up .troupe/ and stray files.
- Never force-push, never rewrite published history, never switch this worktree to another branch.
- Never signal done before the work is committed: \`git status\` must be clean apart from .troupe/.`;
}
