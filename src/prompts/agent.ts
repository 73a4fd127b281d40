import { shellWord } from "./context.ts";

export interface PromptContext {
  id: string;
  name: string;
  prompt: string;
  /** Where its prompt.md and manifest.json are: `.troupe/input` in a worktree, a per-agent folder otherwise. */
  inputDir: string;
  /**
   * The troupe command, by absolute path: some CLIs run tools in a login shell (Codex runs
   * `bash -lc`), whose profile resets PATH and loses the troupe put first on it.
   */
  troupe: string;
}

/** The protocol every agent follows, appended to its task so it knows how to end and how to talk. */
function troupeInstructions(c: Pick<PromptContext, "id" | "name" | "inputDir" | "troupe">): string {
  const troupe = shellWord(c.troupe);
  return `## Working under troupe

You are agent "${c.name}" (id ${c.id}), one of several coding agents run by troupe. Your input is in ${c.inputDir} (prompt.md, manifest.json). Never commit anything under .troupe/.

End your run with exactly one of these shell commands, as your last action:
- \`${troupe} signal done --result "<short summary of what you did>"\`
- \`${troupe} signal questions --question "<question>" [--question "<another>"]\` when you cannot go on without the person's answers; you will be resumed with them.
- \`${troupe} signal error --error "<what went wrong>"\` when the task cannot be done.

To talk to others while you work:
- \`${troupe} ask "<question>" --to <agent name>\` (or \`--user\` for the person) waits and prints the answer.
- \`${troupe} listen\` prints the next question addressed to you as JSON ({"conversationId", "from", "question", ...}).
- \`${troupe} answer "<answer>" --conversation <conversationId>\` answers it.
- \`${troupe} send <agent name> "<text>"\` (or \`--user\`, \`--supervisor\`) sends a message without waiting; \`${troupe} inbox --json\` prints the messages sent to you.

(\`${troupe}\` is also on your PATH as \`troupe\`.)
`;
}

export function buildAgentPrompt(c: PromptContext): string {
  return `${c.prompt.trim()}\n\n${troupeInstructions(c)}`;
}

export function answersPrompt(troupe: string, answers: { question: string; answer: string }[], message?: string): string {
  const parts = answers.map((a) => `Q: ${a.question}\nA: ${a.answer}`);
  const body = parts.length ? `Here are the answers to your questions:\n\n${parts.join("\n\n")}` : "";
  const note = message ? `${body ? "\n\n" : ""}${message}` : "";
  return `${body}${note}\n\nContinue the task, and end with \`${shellWord(troupe)} signal\` as before.`;
}

export function incomingQuestionPrompt(troupe: string, conv: { id: string; fromName: string; question: string }): string {
  const t = shellWord(troupe);
  return `Agent "${conv.fromName}" asks you (conversation ${conv.id}):\n\n${conv.question}\n\nAnswer with \`${t} answer "<answer>" --conversation ${conv.id}\`, then end with \`${t} signal done\`.`;
}
