import { existsSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";

/** Who a commit troupe makes on an agent's behalf is by, when the agent's environment names no one. */
const TROUPE_IDENTITY = {
  GIT_AUTHOR_NAME: "troupe",
  GIT_AUTHOR_EMAIL: "troupe@localhost",
  GIT_COMMITTER_NAME: "troupe",
  GIT_COMMITTER_EMAIL: "troupe@localhost",
} as const;

const IDENTITY_VARS = Object.keys(TROUPE_IDENTITY) as (keyof typeof TROUPE_IDENTITY)[];

/**
 * The paths of a worktree that `git status` reports (modified, staged, deleted, untracked;
 * ignored files and troupe's own `.troupe/` excluded), sorted. A missing worktree has none.
 */
export async function dirtyPaths(worktree: string): Promise<string[]> {
  // -z: names are NUL-separated and never quoted; a rename's second field is its old name
  const out = await simpleGit(worktree).raw(["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  const fields = out.split("\0");
  const paths = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    const names = [f.slice(3)];
    // a rename's old name is part of the change: committing only the new one would leave its removal staged
    if (f[0] === "R") names.push(fields[++i] ?? "");
    else if (f[0] === "C") i++;
    for (const path of names) if (path && path !== ".troupe" && !path.startsWith(".troupe/")) paths.add(path);
  }
  return [...paths].sort();
}

/**
 * Commits exactly `paths` of the worktree on its branch, so removing the worktree loses nothing.
 * The identity is the agent's own (from its saved environment) when it has one, else troupe's;
 * signing is off (no key prompt can be answered here). Returns the new commit.
 */
export async function saveAsCommit(worktree: string, paths: string[], message: string, env: Record<string, string>): Promise<string> {
  const identity: Record<string, string> = {};
  for (const k of IDENTITY_VARS) identity[k] = env[k] || TROUPE_IDENTITY[k];
  // literal: a file named `*.ts` is that file, not a glob
  const git = simpleGit(worktree).env({ ...pathEnv(), ...identity, GIT_LITERAL_PATHSPECS: "1" });
  const present = paths.filter((p) => existsSync(join(worktree, p)));
  const gone = paths.filter((p) => !present.includes(p));
  try {
    if (present.length) await git.raw(["add", "-A", "--", ...present]);
    // a deleted file (or a rename's old name) is no path `add` can match
    if (gone.length) await git.raw(["rm", "--cached", "-q", "--ignore-unmatch", "--", ...gone]);
    await git.raw(["-c", "commit.gpgsign=false", "commit", "--no-verify", "-q", "-m", message, "--", ...paths]);
    return (await git.revparse(["HEAD"])).trim();
  } catch (err) {
    throw new TroupeError("internal", `could not save ${worktree}'s changes as a commit: ${errorMessage(err).trim().split("\n")[0]}`, { cause: err });
  }
}

/** simple-git's env() replaces the environment: git still needs PATH and HOME (its config). */
function pathEnv(): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "XDG_CONFIG_HOME", "LANG", "LC_ALL"]) {
    const v = process.env[k];
    if (v !== undefined) keep[k] = v;
  }
  return keep;
}
