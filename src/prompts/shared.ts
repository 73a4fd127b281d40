import type { AgentMode } from "../protocol/work.ts";
import { block, type Choice } from "./block.ts";
import { shellWord, type ModePromptContext } from "./context.ts";

/** The protocol with troupe every mode shares: its input, talking, listening, ending. */

/** What each input file holds, listing only those present. */
const INPUT_FILES: [prefix: string, holds: string][] = [
  ["initiative.md", "the initiative: its goal (the body) and its id, title and branch (the front matter)"],
  ["phase.md", "the phase you work on: its content, id, title and the slugs of the phases it depends on"],
  ["task.md", "your task: what to build, expected behaviour, how to test it, and the slugs of the tasks it depends on"],
  ["context/phases/", "the initiative's other phases (read-only context: do not redo their work)"],
  ["context/tasks/", "the completed tasks of this phase with what their agents reported (their work is already on your branch)"],
  ["context/decisions/", "decisions taken in earlier discussions of this initiative: follow them"],
];

export const input = block("input", (c) => {
  const lines = INPUT_FILES.filter(([prefix]) => c.files.some((f) => f === prefix || f.startsWith(prefix))).map(([prefix, holds]) => {
    const n = prefix.endsWith("/") ? c.files.filter((f) => f.startsWith(prefix)).length : 0;
    return `- \`${prefix}\`${n ? ` (${n} file${n === 1 ? "" : "s"})` : ""}: ${holds}`;
  });
  return `## Your input (read it first)

In \`${c.inputDir}\`, written by troupe for this run; each .md file has YAML front matter (\`id\`, \`title\`, \`dependsOn\`) and a markdown body:
${lines.join("\n")}
- \`manifest.json\`: your agent id, mode, the ids you work on and the list of these files.
- \`prompt.md\`: these instructions, to read again whenever you need them.
Never commit anything under .troupe/: it is troupe's, not the project's.`;
});

export const talk = block("talk", (c) => {
  const t = shellWord(c.troupe);
  const mine = [c.taskId && `task ${c.taskId}`, c.phaseId && `phase ${c.phaseId}`].filter(Boolean).join(", ");
  return `## Talking to the person and to other agents

You are agent "${c.name}" (id ${c.id})${mine ? `, working ${mine}` : ""} of initiative ${c.initiativeId}; others reach you as \`--to ${c.name}\`.
- \`${t} ask "<question>" --user\` asks the person and waits for the answer.
- \`${t} ask "<question>" --task <task id>\` or \`--phase <phase id>\` asks the agent working that task or phase (ids are in the front matter of your input files); \`--to <agent name>\` asks one agent.
Ask only what you cannot find out yourself from the code, the input files or the history.`;
});

/**
 * For CLIs that take no input while they run: a look between steps. One of the agent's own
 * commands per look (allowed in every permission mode, where an allow rule never covers a
 * redirection or `&`), rather than a background `troupe listen`, which would outlive the run,
 * claim questions for it, and keep its idle clock stopped.
 */
const listenPoll = block("listen.poll", (c) => {
  const t = shellWord(c.troupe);
  return `## Questions while you work

Your CLI takes no input while it runs: questions and messages for you wait until you look. Look between steps (after each edit, test run or commit):
- \`${t} listen --timeout 0\` prints the question waiting for you, if any ({"conversationId", "fromName", "question", ...}; exit 3, "no question arrived", when none). Answer it with \`${t} answer "<answer>" --conversation <conversationId>\`, then go on.
- After each commit, \`${t} inbox\` prints the messages sent to you: act on those that concern your task.`;
});

/** For CLIs that take user messages mid-run: troupe writes them into the session. */
const listenLive = block("listen.live", (c) => {
  return `## Questions while you work

Questions and messages from the person and from other agents reach you as user messages while you run; each says who sent it and, for a question, the exact \`${shellWord(c.troupe)} answer\` command that answers it. Answer a question at once with that command, act on a message if it concerns your task, then carry on.`;
});

export const listen: Choice = { choose: (c) => (c.liveInput ? listenLive : listenPoll) };

/** What `done` means in each mode: what must exist before the agent signals it. */
const DONE_MEANS: Record<AgentMode, string> = {
  discuss: "your decision files are written (or you found nothing to decide)",
  plan: "every phase file is written; they are read the moment you signal, and a malformed one fails the whole run",
  detail: "every task file is written; they are read the moment you signal, and a malformed one fails the whole run",
  execute: "the task works, its tests pass and everything is committed",
  refine: "the revised goal is written, or you decided nothing needs changing (then write nothing)",
};

export const signal = block("signal", (c: ModePromptContext) => {
  const t = shellWord(c.troupe);
  return `## How to end

End your run with exactly one of these shell commands, as your last action:
- \`${t} signal done --result "<one-paragraph summary>"\` once ${DONE_MEANS[c.mode]}.
- \`${t} signal questions --question "<question>" [--question "<another>"]\` when you cannot go on without the person's answers; you will be resumed with them, in this same worktree.
- \`${t} signal error --error "<what stops you>"\` when it cannot be done.
The signal is what troupe reads, not your last message. (\`${t}\` is also on your PATH as \`troupe\`.)`;
});
