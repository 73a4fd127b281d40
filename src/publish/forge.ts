import { TroupeError } from "../errors.ts";
import type { GitHubConfig } from "../protocol/user-config.ts";
import { ghCreate, ghFindOpen, ghLoggedIn } from "./gh-cli.ts";
import { createPull, findOpenPull, type GitHubApi, type NewPull, type OpenPull } from "./github-api.ts";
import { defaultApiUrl, type RemoteRepo } from "./remote-repo.ts";

/** How pull requests reach GitHub: the person's gh, or the REST API with a token. */
export type Forge = { via: "gh"; repo: RemoteRepo; env: Record<string, string> } | { via: "api"; repo: RemoteRepo; api: GitHubApi };

/**
 * gh where it is installed and logged in to the remote's host; else the API (the config's base
 * URL, or the host's) with GH_TOKEN, GITHUB_TOKEN (GH_ENTERPRISE_TOKEN for an Enterprise host) or
 * the config's token. Decided before anything is pushed: without credentials nothing is done.
 */
export async function forgeFor(repo: RemoteRepo, env: Record<string, string>, config: GitHubConfig | undefined): Promise<Forge> {
  if (await ghLoggedIn(repo.host, env)) return { via: "gh", repo, env };
  const enterprise = repo.host !== "github.com";
  const token = env.GH_TOKEN || env.GITHUB_TOKEN || (enterprise ? env.GH_ENTERPRISE_TOKEN || env.GITHUB_ENTERPRISE_TOKEN : undefined) || config?.token;
  if (!token) {
    throw new TroupeError(
      "no_credentials",
      `no GitHub credentials for ${repo.host}: gh is not installed or not logged in ('gh auth login'), and no token is given (GH_TOKEN, or github.token in the user config)`,
    );
  }
  return { via: "api", repo, api: { baseUrl: config?.apiUrl ?? defaultApiUrl(repo.host), token } };
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
