import { existsSync } from "node:fs";
import { parseDiff, type ParsedLine } from "./diff-lines.ts";

/** What an agent's diff is computed from (its row). */
export interface DiffSubject {
  name: string;
  branch: string | null;
  baseRef: string | null;
  worktree: string | null;
  cwd: string;
}

/**
 * The same text whatever the user's git config says (prefixes, colour, an external diff tool,
 * renames): the lines are parsed (diff-lines.ts) and their paths are what comments point at.
 */
const DIFF_ARGS = ["--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/"];

/**
 * An agent's work as lines of a diff: what is committed on its branch since its base, then what
 * is uncommitted in its folder, each line with its file and numbers (diff-lines.ts). Read-only
 * git, run by the daemon that owns the agent (the workspace's, which for a remote agent is on its
 * own box).
 */
export async function agentDiff(agent: DiffSubject, workspaceRoot: string): Promise<ParsedLine[]> {
  // loaded on the first diff asked for
  const { simpleGit } = await import("simple-git");
  const lines: ParsedLine[] = [];
  if (agent.branch && agent.baseRef) {
    const committed = await simpleGit(workspaceRoot).diff([...DIFF_ARGS, `${agent.baseRef}...${agent.branch}`]);
    lines.push({ text: `── committed on ${agent.branch} since ${agent.baseRef} ──`, kind: "section", section: "committed" });
    lines.push(...(committed ? parseDiff(committed, "committed") : [{ text: "(no commits yet)", kind: "note" as const, section: "committed" as const }]));
  }
  const dir = agent.worktree && existsSync(agent.worktree) ? agent.worktree : !agent.branch && existsSync(agent.cwd) ? agent.cwd : null;
  if (dir) {
    const uncommitted = await simpleGit(dir).diff([...DIFF_ARGS, "HEAD"]);
    if (uncommitted || !lines.length) {
      lines.push({ text: `── uncommitted in ${dir} ──`, kind: "section", section: "uncommitted" });
      lines.push(...(uncommitted ? parseDiff(uncommitted, "uncommitted") : [{ text: "(clean)", kind: "note" as const, section: "uncommitted" as const }]));
    }
  }
  if (!lines.length) lines.push({ text: `${agent.name} has no branch and its folder is gone`, kind: "note" });
  return lines;
}
