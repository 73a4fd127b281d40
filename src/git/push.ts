import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";

/** A push that prints nothing this long is ended; one that takes longer than the whole limit, too. */
const SILENT_MS = 60_000;
const WHOLE_MS = 300_000;

/**
 * The person's environment, with every prompt turned off: the daemon has no terminal, so a
 * credential prompt would wait for nobody (git's own, Git Credential Manager's, ssh's askpass).
 */
function quiet(env: Record<string, string>): Record<string, string> {
  // and none of the caller's repository (a hook's or `rebase --exec`'s GIT_DIR): the workspace's is the one
  const { GIT_DIR: _d, GIT_WORK_TREE: _w, GIT_INDEX_FILE: _i, GIT_COMMON_DIR: _c, ...own } = env;
  return { ...own, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never", SSH_ASKPASS_REQUIRE: "never" };
}

/**
 * The person's git, as their shell runs it: their environment may name an editor, an ssh command,
 * an askpass, a proxy, config from GIT_CONFIG_*; simple-git refuses those by default, as it would
 * for input from anyone. This environment is the person's own (the routes are the person's alone)
 * and every argument is troupe's (the remote's name is checked by its schema).
 */
const PERSONS_GIT = {
  allowUnsafeEditor: true,
  allowUnsafeSshCommand: true,
  allowUnsafeAskPass: true,
  allowUnsafePager: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeGitProxy: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeHooksPath: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeGpgProgram: true,
} as const;

/** The person's git in `root`, prompts off, ended after SILENT_MS of silence; `limits.abort`: a whole-run limit. */
function personsGit(root: string, env: Record<string, string>, limits: { abort?: AbortSignal } = {}) {
  return simpleGit({ baseDir: root, unsafe: PERSONS_GIT, timeout: { block: SILENT_MS }, ...limits }).env(quiet(env));
}

/** A remote's URL as its config names it (before `insteadOf`: what owner and repository are read from). */
export async function remoteUrl(root: string, remote: string): Promise<string> {
  const url = (await simpleGit(root).raw(["config", "--get", `remote.${remote}.url`]).catch(() => "")).trim();
  if (!url) {
    const names = (await simpleGit(root).raw(["remote"]).catch(() => "")).split("\n").filter(Boolean);
    const others = names.length ? `; it has ${names.join(", ")}: name one with --to` : "; add one with 'git remote add origin URL'";
    throw new TroupeError("no_git_remote", `no git remote '${remote}' in ${root}${others}`);
  }
  return url;
}

/** A URL with its user and password taken out (an https remote may carry a token). */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

/**
 * Pushes `branch` to the same name on `remote` with the person's git (config, credential helpers,
 * ssh and its agent through `env`); never forced: a remote branch that moved is a rejection.
 * Returns the commit pushed.
 */
export async function pushBranch(root: string, remote: string, branch: string, env: Record<string, string>): Promise<string> {
  const commit = (await simpleGit(root).revparse(["--verify", `refs/heads/${branch}`]).catch(() => "")).trim();
  if (!commit) throw new TroupeError("invalid_state", `there is no branch ${branch} in ${root}`);
  const git = personsGit(root, env, { abort: AbortSignal.timeout(WHOLE_MS) });
  try {
    // the commit read above, not the branch (an agent may commit meanwhile); --progress keeps
    // git talking through a long upload, which the silence limit would otherwise end
    await git.raw(["push", "--porcelain", "--progress", remote, `${commit}:refs/heads/${branch}`]);
  } catch (err) {
    throw pushError(remote, branch, errorMessage(err));
  }
  return commit;
}

/** What git said, as one line: a rejection with its reason, else git's last word. */
export function pushError(remote: string, branch: string, output: string): TroupeError {
  const lines = output.split("\n").map((l) => l.trim()).filter(Boolean);
  // porcelain: "!\trefs/heads/x:refs/heads/x\t[remote rejected] (pre-receive hook declined)"; plain: "! [rejected] x -> x (fetch first)"
  const rejected = lines.find((l) => /\[(remote )?rejected\]/.test(l));
  if (rejected) {
    const why = /\(([^)]*)\)\s*$/.exec(rejected)?.[1] ?? "rejected";
    const hint = /fetch first|non-fast-forward|stale info/.test(why) ? `: ${remote}'s ${branch} has commits this one lacks` : "";
    return new TroupeError("push_rejected", `${remote} rejected the push of ${branch} (${why})${hint}`);
  }
  // simple-git's own words when it ended git: silent too long, or past the whole limit
  if (/block timeout reached|Abort signal received|Abort already signaled/.test(output)) return new TroupeError("push_failed", `pushing ${branch} to ${remote} took too long and was ended`);
  const last = lines.filter((l) => !/^(hint|To |Done)/.test(l)).at(-1) ?? "git push failed";
  return new TroupeError("push_failed", `pushing ${branch} to ${remote} failed: ${last.replace(/^(fatal|error|remote): /, "")}`);
}

/** The branch a remote's HEAD names (its default branch), asked of the remote itself; null when it names none. */
export async function remoteDefaultBranch(root: string, remote: string, env: Record<string, string>): Promise<string | null> {
  const git = personsGit(root, env);
  const out = await git.raw(["ls-remote", "--symref", remote, "HEAD"]).catch(() => "");
  return /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(out)?.[1] ?? null;
}

/** Whether `remote` has `branch` now (asked of it); null when the remote could not be asked. */
export async function remoteHasBranch(root: string, remote: string, branch: string, env: Record<string, string>): Promise<boolean | null> {
  const git = personsGit(root, env);
  try {
    return (await git.raw(["ls-remote", "--heads", remote, `refs/heads/${branch}`])).trim() !== "";
  } catch {
    return null;
  }
}

/** A local branch's name when `ref` is one (`main`, `refs/heads/main`, or `origin/main` for that remote); else null. */
export async function branchNamed(root: string, ref: string, remote: string): Promise<string | null> {
  const git = simpleGit(root);
  const full = (await git.raw(["rev-parse", "--symbolic-full-name", ref]).catch(() => "")).trim();
  if (full.startsWith("refs/heads/")) return full.slice("refs/heads/".length);
  const prefix = `refs/remotes/${remote}/`;
  if (full.startsWith(prefix) && full !== `${prefix}HEAD`) return full.slice(prefix.length);
  return null;
}

/** The commits on `branch` since `base` (oldest first), as `short-hash subject`; at most `limit`. */
export async function commitsSince(root: string, base: string, branch: string, limit = 50): Promise<string[]> {
  const out = await simpleGit(root).raw(["log", "--reverse", `--max-count=${limit}`, "--format=%h %s", `${base}..refs/heads/${branch}`]).catch(() => "");
  return out.split("\n").filter(Boolean);
}
