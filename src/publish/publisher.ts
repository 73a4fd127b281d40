import { TroupeError } from "../errors.ts";
import { branchNamed, commitsSince, pushBranch, remoteDefaultBranch, remoteHasBranch, remoteUrl, withoutCredentials } from "../git/push.ts";
import type { Push, PullRequest } from "../protocol/api-publish.ts";
import type { GitHubConfig } from "../protocol/user-config.ts";
import { forgeFor, openOrFind } from "./forge.ts";
import { pullBody, pullTitle, type PullSource } from "./pr-text.ts";
import { remoteRepo } from "./remote-repo.ts";

/** A branch troupe pushes and opens pull requests of: an agent's or an initiative's. */
export interface Publishable {
  /** `brave-otter`, `initiative sessions`: how errors name it. */
  label: string;
  branch: string;
  /** What it started from: the pull request's base when that is a branch, and where its own commits begin. */
  baseRef: string;
  /** Its title and body's material, less the commits (read here). */
  source: Omit<PullSource, "commits">;
  /** Keeps the pull request's URL on it. */
  record(url: string): void;
}

export interface PushAsk {
  remote?: string;
  env: Record<string, string>;
}

export interface PullAsk extends PushAsk {
  draft?: boolean;
  base?: string;
  title?: string;
  body?: string;
}

interface PublisherDeps {
  /** The workspace's repository: where the branches are and whose remotes they go to. */
  root: string;
  /** The user config's `github`, read at each pull request (edits apply without a restart). */
  github: () => GitHubConfig | undefined;
}

/**
 * Pushes a branch with the person's git, and opens its pull request (gh, or GitHub's API with a
 * token) after the push went through: the remote, the repository it names, the credentials and
 * the base are all settled before anything is pushed, and nothing is opened for a branch whose
 * push failed. One publish of a branch at a time, so two `troupe pr` never open two.
 */
export class Publisher {
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(private readonly d: PublisherDeps) {}

  push(item: Publishable, ask: PushAsk): Promise<Push> {
    const remote = ask.remote ?? "origin";
    return this.one(item.branch, async () => this.pushNow(item, remote, envOf(ask), withoutCredentials(await remoteUrl(this.d.root, remote))));
  }

  pullRequest(item: Publishable, ask: PullAsk): Promise<PullRequest> {
    return this.one(item.branch, async () => {
      const remote = ask.remote ?? "origin";
      const env = envOf(ask);
      const url = withoutCredentials(await remoteUrl(this.d.root, remote));
      const repo = remoteRepo(remote, url);
      const forge = await forgeFor(repo, env, this.d.github());
      const base = ask.base ?? (await this.baseOf(item, remote, env));
      // a base the remote lacks would be GitHub's refusal after the push: said now, nothing pushed
      if ((await remoteHasBranch(this.d.root, remote, base, env)) === false) {
        throw new TroupeError("no_git_remote", `${remote} has no branch ${base} to open the pull request of ${item.branch} against: name one with --base`);
      }
      const since = (await branchNamed(this.d.root, `${remote}/${base}`, remote)) ? `${remote}/${base}` : item.baseRef;
      const commits = await commitsSince(this.d.root, since, item.branch);
      if (!commits.length) throw new TroupeError("invalid_state", `${item.label}: ${item.branch} has no commits beyond ${base}: nothing to open a pull request for`);
      const push = await this.pushNow(item, remote, env, url);
      const source = { ...item.source, commits };
      const wanted = { title: pullTitle(source, ask.title), body: ask.body ?? pullBody(source), head: item.branch, base, draft: ask.draft ?? false };
      const { pull, created } = await openOrFind(forge, wanted).catch((err: unknown) => {
        // the push stands (it is the remote's now): the line says so, and why no pull request
        throw err instanceof TroupeError ? new TroupeError(err.code, `pushed ${item.branch} to ${remote}, but no pull request was opened: ${err.message}`, { cause: err }) : err;
      });
      item.record(pull.url);
      return { url: pull.url, number: pull.number, created, via: forge.via, base, push };
    });
  }

  /** `url`: the remote's, as read once for this publish (credentials removed). */
  private async pushNow(item: Publishable, remote: string, env: Record<string, string>, url: string): Promise<Push> {
    const commit = await pushBranch(this.d.root, remote, item.branch, env);
    return { remote, branch: item.branch, commit, url };
  }

  /** The branch it started from when that is one; else the remote's default branch. */
  private async baseOf(item: Publishable, remote: string, env: Record<string, string>): Promise<string> {
    const named = item.baseRef === "HEAD" ? null : await branchNamed(this.d.root, item.baseRef, remote);
    const base = named ?? (await remoteDefaultBranch(this.d.root, remote, env));
    if (!base) throw new TroupeError("no_git_remote", `${item.label} started from ${item.baseRef}, not a branch, and '${remote}' names no default branch to open the pull request against`);
    return base;
  }

  private one<T>(branch: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.busy.get(branch) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    this.busy.set(branch, tail);
    void tail.then(() => {
      if (this.busy.get(branch) === tail) this.busy.delete(branch);
    });
    return run;
  }
}

/** The caller's environment (the CLI's: its credential helpers, ssh agent, GH_TOKEN); the daemon's when it sent none. */
function envOf(ask: PushAsk): Record<string, string> {
  if (Object.keys(ask.env).length) return ask.env;
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}
