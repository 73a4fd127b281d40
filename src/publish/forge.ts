import { TroupeError } from "../errors.ts";
import type { GitHubConfig } from "../protocol/user-config.ts";
import { ghCreate, ghFindOpen, ghLoggedIn } from "./gh-cli.ts";
import { createPull, findOpenPull, type GitHubApi, type NewPull, type OpenPull } from "./github-api.ts";
import { defaultApiUrl, type RemoteRepo } from "./remote-repo.ts";

/** How pull requests reach GitHub: the person's gh, or the REST API with a token. */
export type Forge = { via: "gh"; repo: RemoteRepo; env: Record<string, string> } | { via: "api"; repo: RemoteRepo; api: GitHubApi };

/** github.com under its other names (the web's www, ssh over port 443). */
const DOTCOM = new Set(["github.com", "www.github.com", "ssh.github.com"]);

/**
 * gh where it is installed and logged in to the remote's host; else the API with a token: for
 * github.com GH_TOKEN, GITHUB_TOKEN or the config's (when the config is github.com's); for a GitHub
 * Enterprise host only when the config names it (`github.host`), with GH_ENTERPRISE_TOKEN,
 * GITHUB_ENTERPRISE_TOKEN or the config's, at `github.apiUrl` or the host's `/api/v3`. Any other
 * host (GitLab, Bitbucket, a server the person did not name) gets no token. Decided before
 * anything is pushed: without credentials nothing is done.
 */
export async function forgeFor(repo: RemoteRepo, env: Record<string, string>, config: GitHubConfig | undefined): Promise<Forge> {
  const host = DOTCOM.has(repo.host) ? "github.com" : repo.host;
  const at = { ...repo, host };
  if (await ghLoggedIn(host, env)) return { via: "gh", repo: at, env };
  const configured = (config?.host?.toLowerCase() ?? "github.com") === host ? config : undefined;
  if (host !== "github.com" && !configured) {
    throw new TroupeError(
      "no_credentials",
      `${host} is not github.com and gh is not logged in to it: for a GitHub Enterprise server, set github.host (and github.apiUrl) in the user config; no token goes to a host not named there`,
    );
  }
  const token = (host === "github.com" ? env.GH_TOKEN || env.GITHUB_TOKEN : env.GH_ENTERPRISE_TOKEN || env.GITHUB_ENTERPRISE_TOKEN) || configured?.token;
  if (!token) {
    throw new TroupeError(
      "no_credentials",
      `no GitHub credentials for ${host}: gh is not installed or not logged in ('gh auth login'), and no token is given (${host === "github.com" ? "GH_TOKEN" : "GH_ENTERPRISE_TOKEN"}, or github.token in the user config)`,
    );
  }
  return { via: "api", repo: at, api: { baseUrl: configured?.apiUrl ?? defaultApiUrl(host), token } };
}

function findOpen(forge: Forge, branch: string): Promise<OpenPull | null> {
  return forge.via === "gh" ? ghFindOpen(forge.repo, branch, forge.env) : findOpenPull(forge.api, forge.repo, branch);
}

/** The branch's open pull request, else a new one: never a second. */
export async function openOrFind(forge: Forge, pull: NewPull): Promise<{ pull: OpenPull; created: boolean }> {
  const open = await findOpen(forge, pull.head);
  if (open) return { pull: open, created: false };
  try {
    return { pull: forge.via === "gh" ? await ghCreate(forge.repo, pull, forge.env) : await createPull(forge.api, forge.repo, pull), created: true };
  } catch (err) {
    // opened meanwhile (another troupe pr, the person in a browser): that one is the branch's
    const raced = await findOpen(forge, pull.head).catch(() => null);
    if (raced) return { pull: raced, created: false };
    throw err;
  }
}
