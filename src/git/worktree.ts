import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";

const run = promisify(execFile);

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

const worktreeLocks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` (a `git worktree add | remove | prune`) alone among this process's worktree changes
 * in `root`: concurrent `git worktree add`s in one repository fail (git reads the admin folder
 * another is still writing: "failed to read .git/worktrees/<x>/commondir"), as parallel spawns
 * and dispatch would make them.
 */
export function withWorktreeLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const run = (worktreeLocks.get(root) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  worktreeLocks.set(root, tail);
  void tail.then(() => {
    if (worktreeLocks.get(root) === tail) worktreeLocks.delete(root);
  });
  return run;
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
    await withWorktreeLock(root, () => git.raw(["worktree", "add", "-b", branch, path, baseCommit]));
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
  await withWorktreeLock(root, () => simpleGit(root).raw(["worktree", "remove", "--force", path]));
}

/** Checks out an existing branch again in a new worktree at `path` (a resume after the worktree was removed). */
export async function restoreWorktree(root: string, path: string, branch: string): Promise<void> {
  mkdirSync(join(root, ".troupe", "worktrees"), { recursive: true });
  const git = simpleGit(root);
  // git's record of the old worktree may remain (removed by hand): it would refuse the branch
  try {
    await withWorktreeLock(root, async () => {
      await git.raw(["worktree", "prune"]);
      await git.raw(["worktree", "add", path, branch]);
    });
  } catch (err) {
    throw new TroupeError("spawn_failed", `could not recreate the worktree from ${branch}: ${errorMessage(err).trim().split("\n")[0]}`, { cause: err });
  }
}

/**
 * Git's records of worktrees whose folder is gone (`git worktree prune`); with `dryRun` only what
 * would be pruned. Returns git's lines, one per record.
 */
export async function pruneWorktrees(root: string, dryRun: boolean): Promise<string[]> {
  if (!isGitRepo(root)) return [];
  // git says what it prunes on stderr, which simple-git's raw() does not return
  const { stderr } = await run("git", ["worktree", "prune", "--verbose", ...(dryRun ? ["--dry-run"] : [])], { cwd: root });
  return stderr.split("\n").map((l) => l.trim()).filter(Boolean);
}
