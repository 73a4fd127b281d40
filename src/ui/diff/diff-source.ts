import { existsSync } from "node:fs";
import type { Agent } from "../../protocol/entities.ts";

/** Lines of a diff; read-only git, run where the agent's branch and worktree are. */
export async function loadDiff(agent: Agent, workspaceRoot: string): Promise<string[]> {
  // loaded on the first diff shown: simple-git is no part of the dashboard's first frame
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
