import { simpleGit } from "simple-git";
import { TroupeError, errorMessage } from "../errors.ts";

/** How git reaches a host's repository: its URL and the environment its OpenSSH runs with. */
export interface GitWay {
  url: string;
  env: Record<string, string>;
}

/** The ref a task placed on a host starts from there: the initiative branch as it was when the task was placed. */
export function hostBaseBranch(taskId: string): string {
  return `troupe-pool/${taskId}`;
}

/** Where a host holds an initiative branch's newest commit pushed ahead of its tasks' claims. */
export function hostInitiativeBase(initiativeId: string): string {
  return `troupe-pool/base-${initiativeId}`;
}

/** Where a host's task branch is kept here once fetched: `refs/troupe-hosts/<host>/<branch>`. */
export function fetchedRef(host: string, branch: string): string {
  return `refs/troupe-hosts/${host}/${branch}`;
}

/** A push or fetch silent this long is ended: ssh's keep-alives catch a dead connection, not a stuck far end. */
const SILENT_MS = 120_000;

function git(root: string, way: GitWay) {
  // no prompt: the daemon runs it, long after any terminal; the ssh command is the person's own (TROUPE_SSH_COMMAND)
  return simpleGit({ baseDir: root, unsafe: { allowUnsafeSshCommand: true }, timeout: { block: SILENT_MS } }).env({ ...way.env, GIT_TERMINAL_PROMPT: "0" });
}

/** The commit `ref` names here. */
export async function commitOf(root: string, ref: string): Promise<string> {
  return (await simpleGit(root).revparse([`${ref}^{commit}`])).trim();
}

export async function refExists(root: string, ref: string): Promise<boolean> {
  return (await simpleGit(root).raw(["for-each-ref", "--format=%(refname)", ref])).trim() === ref;
}

/**
 * Pushes `source` (a ref or commit here) to the host's repository as branch `branch` (forced: it is
 * troupe's, made for one task). Plain git over OpenSSH with the person's own keys and config.
 */
export async function pushTo(root: string, way: GitWay, source: string, branch: string): Promise<void> {
  try {
    await git(root, way).raw(["push", "--quiet", "--no-verify", way.url, `+${source}:refs/heads/${branch}`]);
  } catch (err) {
    throw new TroupeError("remote_unreachable", `pushing to ${way.url}: ${lastLine(err)}`, { cause: err });
  }
}

/** Fetches the host's `branch` into `ref` here (forced: the task's agent may have rewritten it); its commit. */
export async function fetchFrom(root: string, way: GitWay, branch: string, ref: string): Promise<string> {
  try {
    await git(root, way).raw(["fetch", "--quiet", "--no-tags", way.url, `+refs/heads/${branch}:${ref}`]);
    return (await simpleGit(root).revparse([ref])).trim();
  } catch (err) {
    throw new TroupeError("remote_unreachable", `fetching ${branch} from ${way.url}: ${lastLine(err)}`, { cause: err });
  }
}

function lastLine(err: unknown): string {
  return errorMessage(err).trim().split("\n").filter(Boolean).at(-1) ?? "git failed";
}
