import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";
import { isGitRepo } from "./worktree.ts";

/** A prefix of its own: an agent's branches are `troupe/<name>`, so the two never collide. */
export const initiativeBranch = (slug: string): string => `troupe-initiative/${slug}`;

export interface Base {
  /** As named; with no name, the current branch (or the commit when HEAD is detached). */
  ref: string;
  commit: string;
}

/** The base an initiative starts from, resolved to a commit now (it may move later; the initiative does not). */
export async function resolveBase(root: string, ref: string | undefined): Promise<Base> {
  if (!isGitRepo(root)) throw new TroupeError("not_git", `${root} is not a git repository; an initiative needs one for its branch`);
  const git = simpleGit(root);
  const named = ref ?? ((await git.raw(["symbolic-ref", "--quiet", "--short", "HEAD"]).catch(() => "")).trim() || "HEAD");
  let commit = "";
  try {
    commit = (await git.revparse(["--verify", "--quiet", `${named}^{commit}`])).trim();
  } catch {
    // reported below
  }
  if (!commit) throw new TroupeError("bad_request", `no commit at '${named}' (a new repository needs a first commit)`);
  return { ref: named === "HEAD" ? commit : named, commit };
}

export async function branchExists(root: string, branch: string): Promise<boolean> {
  if (!isGitRepo(root)) return false;
  const out = await simpleGit(root).raw(["for-each-ref", "--format=%(refname)", `refs/heads/${branch}`]);
  return out.trim() !== "";
}

/** Creates the branch at `commit`; never moves an existing one. */
export async function createBranch(root: string, branch: string, commit: string): Promise<void> {
  try {
    await simpleGit(root).raw(["branch", "--no-track", branch, commit]);
  } catch (err) {
    throw new TroupeError("conflict", `git branch ${branch} failed: ${errorMessage(err).trim().split("\n")[0]}`, { cause: err });
  }
}

/** What the branch holds beyond `baseCommit` (the commit it started from): a patch. */
export async function branchDiff(root: string, baseCommit: string, branch: string): Promise<string> {
  try {
    return await simpleGit(root).raw(["diff", "--no-color", "--no-ext-diff", `${baseCommit}...${branch}`]);
  } catch (err) {
    throw new TroupeError("invalid_state", `git diff of ${branch} failed: ${errorMessage(err).trim().split("\n")[0]}`, { cause: err });
  }
}
