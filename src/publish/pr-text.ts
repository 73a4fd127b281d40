/** What a pull request's title and body are written from. */
export interface PullSource {
  /** `agent brave-otter`, `initiative sessions`: who opened it, in its last line. */
  by: string;
  /** The task's or the initiative's title; null for a plain agent. */
  title: string | null;
  /** The task's description, the agent's prompt or the initiative's goal. */
  description: string | null;
  /** The agent's result (its `troupe signal done --result`), or the initiative's finished tasks. */
  result: string | null;
  /** `short-hash subject`, oldest first. */
  commits: string[];
}

const TITLE_MAX = 72;

/** The given title, else the source's, else the description's first line, else the newest commit's subject. */
export function pullTitle(s: PullSource, given?: string): string {
  if (given?.trim()) return given.trim();
  const line = s.title?.trim() || firstLine(s.description) || s.commits.at(-1)?.replace(/^\S+\s/, "") || s.by;
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1).replace(/\s+\S*$/, "")}…`;
}

function firstLine(text: string | null): string {
  return (text ?? "").split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find(Boolean) ?? "";
}

/** The body: the task, the result, the commits, who opened it (Markdown, as GitHub shows it). */
export function pullBody(s: PullSource): string {
  const parts: string[] = [];
  if (s.description?.trim()) parts.push(`## Task\n\n${s.description.trim()}`);
  if (s.result?.trim()) parts.push(`## Result\n\n${s.result.trim()}`);
  if (s.commits.length) parts.push(`## Commits\n\n${s.commits.map((c) => `- ${c}`).join("\n")}`);
  parts.push(`Opened with troupe from ${s.by}.`);
  return `${parts.join("\n\n")}\n`;
}
