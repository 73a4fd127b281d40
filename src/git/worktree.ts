import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";

export interface Worktree {
  path: string;
  branch: string;
  /** The ref it was made from, as given (HEAD when none was). */
  baseRef: string;
  baseCommit: string;
}

export function isGitRepo(root: string): boolean {
  return existsSync(join(root, ".git"));
}

export function worktreePath(root: string, name: string): string {
  return join(root, ".troupe", "worktrees", name);
}

/** A new worktree on branch `troupe/<name>` from `baseRef`, under `.troupe/worktrees/<name>`. */
export async function createWorktree(root: string, name: string, baseRef = "HEAD"): Promise<Worktree> {
  if (!isGitRepo(root)) throw new TroupeError("not_git", `${root} is not a git repository; use --no-worktree to run there`);
  const git = simpleGit(root);
  let baseCommit = "";
  try {
    baseCommit = (await git.revparse(["--verify", "--quiet", `${baseRef}^{commit}`])).trim();
  } catch {
    // reported below
  }
  if (!baseCommit) throw new TroupeError("bad_request", `no commit at '${baseRef}' (a new repository needs a first commit)`);
  const branch = `troupe/${name}`;
  const path = worktreePath(root, name);
  mkdirSync(join(root, ".troupe", "worktrees"), { recursive: true });
  try {
    await git.raw(["worktree", "add", "-b", branch, path, baseCommit]);
  } catch (err) {
    throw new TroupeError("spawn_failed", `git worktree add failed: ${errorMessage(err).trim().split("\n")[0]}`, { cause: err });
  }
  return { path, branch, baseRef, baseCommit };
}

/** Names that have a `troupe/<name>` branch (kept after their agent was removed). */
export async function troupeBranches(root: string): Promise<Set<string>> {
  if (!isGitRepo(root)) return new Set();
  const out = await simpleGit(root).raw(["for-each-ref", "--format=%(refname:strip=3)", "refs/heads/troupe/"]);
  return new Set(out.split("\n").filter(Boolean));
}

/** Removes the worktree (its branch stays, holding the agent's commits). */
export async function removeWorktree(root: string, path: string): Promise<void> {
  await simpleGit(root).raw(["worktree", "remove", "--force", path]);
}
