import { existsSync } from "node:fs";

/** What an agent's diff is computed from (its row). */
export interface DiffSubject {
  name: string;
  branch: string | null;
  baseRef: string | null;
  worktree: string | null;
  cwd: string;
}

/**
 * An agent's work as lines of a diff: what is committed on its branch since its base, then what
 * is uncommitted in its folder. Read-only git, run by the daemon that owns the agent (the
 * workspace's, which for a remote agent is on its own box).
 */
export async function agentDiff(agent: DiffSubject, workspaceRoot: string): Promise<string[]> {
  // loaded on the first diff asked for
  const { simpleGit } = await import("simple-git");
  const lines: string[] = [];
  const split = (s: string) => s.replace(/\n$/, "").split("\n").filter((l, i, a) => !(a.length === 1 && l === ""));
  if (agent.branch && agent.baseRef) {
    const committed = await simpleGit(workspaceRoot).diff([`${agent.baseRef}...${agent.branch}`]);
    lines.push(`── committed on ${agent.branch} since ${agent.baseRef} ──`, ...(committed ? split(committed) : ["(no commits yet)"]));
  }
  const dir = agent.worktree && existsSync(agent.worktree) ? agent.worktree : !agent.branch && existsSync(agent.cwd) ? agent.cwd : null;
  if (dir) {
    const uncommitted = await simpleGit(dir).diff(["HEAD"]);
    if (uncommitted || !lines.length) {
      lines.push(`── uncommitted in ${dir} ──`, ...(uncommitted ? split(uncommitted) : ["(clean)"]));
    }
  }
  if (!lines.length) lines.push(`${agent.name} has no branch and its folder is gone`);
  return lines;
}
