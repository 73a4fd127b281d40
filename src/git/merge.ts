import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";
import { withWorktreeLock } from "./worktree.ts";

/** Who troupe's merge commits are by: the person who dispatched, as git knew them then. */
export interface GitIdentity {
  name: string;
  email: string;
}

export type MergeOutcome =
  /** A new `--no-ff` merge commit on the initiative branch. */
  | { kind: "merged"; commit: string }
  /** The task branch was in the initiative branch already (an earlier merge, a crash after it, or nothing to merge). */
  | { kind: "already"; commit: string | null }
  /** Aborted: the initiative branch is as it was; these files conflicted. */
  | { kind: "conflict"; files: string[] };

const firstLine = (err: unknown): string => errorMessage(err).trim().split("\n")[0] ?? "";

const IDENTITY_ENV = /^(HOME|XDG_CONFIG_HOME|USER|LOGNAME|EMAIL|GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL)|GIT_CONFIG_(GLOBAL|SYSTEM|NOSYSTEM))$/;

/** Git's variables naming `identity` as a commit's author and committer. */
export function identityEnv({ name, email }: GitIdentity): Record<string, string> {
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/** `ident` as `git var` prints it: `Name <email> 1700000000 +0000`. */
export function parseIdent(ident: string): GitIdentity | null {
  const m = /^(.*?)\s*<([^>]*)>/.exec(ident.trim());
  if (!m || !m[2]) return null;
  return { name: m[1]!, email: m[2] };
}

/**
 * The identity git would give the person's own commits, read with their environment (their HOME,
 * XDG_CONFIG_HOME and GIT_* variables) in the workspace: what `git commit` would use in their shell.
 */
export async function captureIdentity(root: string, env: Record<string, string>): Promise<GitIdentity> {
  // only what git reads to name someone: simple-git refuses an environment holding EDITOR, PAGER
  // and the like (as any person's may), and git needs nothing else here
  const asked = Object.fromEntries(Object.entries(env).filter(([k]) => IDENTITY_ENV.test(k)));
  const git = simpleGit(root).env({ ...asked, PATH: env.PATH ?? process.env.PATH ?? "" });
  let ident: GitIdentity | null = null;
  try {
    ident = parseIdent(await git.raw(["var", "GIT_COMMITTER_IDENT"]));
  } catch (err) {
    throw new TroupeError("bad_request", `git does not know who you are (${firstLine(err)}): set user.name and user.email, then dispatch again`, { cause: err });
  }
  if (!ident) throw new TroupeError("bad_request", "git does not know who you are: set user.name and user.email, then dispatch again");
  return ident;
}

/** The worktree troupe merges in: `.troupe/worktrees/_initiative-<slug>` (agent names hold no `_`). */
function mergeWorktreePath(root: string, slug: string): string {
  return join(root, ".troupe", "worktrees", `_initiative-${slug}`);
}

/**
 * Merges into an initiative branch inside a worktree troupe owns (never the person's checkout).
 * The caller runs one merge at a time per initiative; each call first puts the worktree back in
 * order (a merge a crash left half done is aborted: it was never committed).
 */
export class InitiativeMerger {
  /** Checked and cleaned once per daemon (only troupe writes there); again after a failed merge. */
  private prepared = false;
  private mergeHead: string | null = null;

  constructor(
    private readonly root: string,
    private readonly slug: string,
    private readonly branch: string,
  ) {}

  get path(): string {
    return mergeWorktreePath(this.root, this.slug);
  }

  /** The worktree on the initiative branch, created if missing, clean of any half-done merge. */
  private async worktree(env: Record<string, string>): Promise<SimpleGit> {
    const path = this.path;
    const git = () => simpleGit({ baseDir: path, config: ["commit.gpgsign=false"] }).env(env);
    if (this.prepared && existsSync(join(path, ".git"))) return git();
    this.prepared = false;
    if (!existsSync(join(path, ".git"))) {
      mkdirSync(join(this.root, ".troupe", "worktrees"), { recursive: true });
      const root = simpleGit(this.root);
      try {
        await withWorktreeLock(this.root, async () => {
          // a folder removed by hand leaves git's record of it behind
          await root.raw(["worktree", "prune"]);
          await root.raw(["worktree", "add", path, this.branch]);
        });
      } catch (err) {
        throw new TroupeError("conflict", `cannot check out ${this.branch} in ${path}: ${firstLine(err)} (is it checked out elsewhere?)`, { cause: err });
      }
    }
    const g = git();
    const p = (await g.raw(["rev-parse", "--git-path", "MERGE_HEAD"])).trim();
    this.mergeHead = p.startsWith("/") ? p : join(path, p);
    if (existsSync(this.mergeHead)) await g.raw(["merge", "--abort"]);
    const head = (await g.raw(["symbolic-ref", "--quiet", "HEAD"]).catch(() => "")).trim();
    if (head !== `refs/heads/${this.branch}`) {
      throw new TroupeError("conflict", `${path} is on ${head || "a detached HEAD"}, not ${this.branch}; troupe merges only there`);
    }
    // only troupe writes here: anything uncommitted is a merge a crash cut short, never work
    await g.raw(["reset", "--quiet", "--hard", "HEAD"]);
    this.prepared = true;
    return g;
  }

  /** Removes troupe's worktree (clean between merges), so the person may check the branch out themselves. */
  async release(): Promise<void> {
    this.prepared = false;
    if (!existsSync(this.path)) return;
    await withWorktreeLock(this.root, () => simpleGit(this.root).raw(["worktree", "remove", "--force", this.path]));
  }

  /**
   * `source`'s commit, and whether the initiative branch holds it already (merged, or nothing
   * new): one `rev-list` of what `source` has that the branch lacks, newest first (topological,
   * so the tip whatever the dates); nothing means contained. Asked so, not with `merge-base
   * --is-ancestor`, since simple-git resolves a failing exit code that printed nothing.
   */
  private async tip(source: string): Promise<{ tip: string; contained: boolean }> {
    const git = simpleGit(this.root);
    const ahead = (await git.raw(["rev-list", "--topo-order", "--max-count=1", source, "--not", this.branch])).trim();
    if (ahead) return { tip: ahead, contained: false };
    return { tip: (await git.revparse([`${source}^{commit}`])).trim(), contained: true };
  }

  async contains(source: string): Promise<boolean> {
    return (await this.tip(source)).contained;
  }

  /** The first-parent merge commit that brought `tip` in, if there is one. */
  private async mergeCommitOf(tip: string): Promise<string | null> {
    const out = await simpleGit(this.root).raw(["rev-list", "--first-parent", "--merges", "--parents", this.branch]);
    for (const line of out.split("\n")) {
      const [commit, , second] = line.split(" ");
      if (second === tip) return commit!;
    }
    return null;
  }

  /**
   * `git merge --no-ff source` into the initiative branch as `identity`, unless it is there
   * already (so a merge is never made twice). A conflict is aborted and reported with its files.
   */
  async merge(source: string, identity: GitIdentity, message: string): Promise<MergeOutcome> {
    const { tip, contained } = await this.tip(source);
    if (contained) return { kind: "already", commit: await this.mergeCommitOf(tip) };
    // a small environment of its own: the daemon's could carry editors or askpass helpers
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? this.root,
      ...identityEnv(identity),
      GIT_TERMINAL_PROMPT: "0",
    };
    const git = await this.worktree(env);
    let failure: unknown = null;
    // simple-git resolves a failing merge that printed its conflicts on stdout only: the
    // worktree says what happened
    await git.raw(["merge", "--no-ff", "--no-edit", "-m", message, tip]).catch((err: unknown) => (failure = err));
    const [head, second] = (await git.raw(["rev-parse", "HEAD", "HEAD^2"]).catch(() => "")).trim().split("\n");
    if (failure === null && second === tip) return { kind: "merged", commit: head! };
    const files = (await git.raw(["diff", "--name-only", "--diff-filter=U"])).split("\n").filter(Boolean);
    if (existsSync(this.mergeHead!)) await git.raw(["merge", "--abort"]);
    if (files.length) return { kind: "conflict", files };
    this.prepared = false;
    throw new TroupeError("conflict", `git merge ${source} into ${this.branch} failed${failure ? `: ${firstLine(failure)}` : ""}`, { cause: failure });
  }
}
