import { TroupeError } from "../errors.ts";

/** The GitHub repository a git remote's URL names. */
export interface RemoteRepo {
  /** `github.com`, or a GitHub Enterprise server's host name. */
  host: string;
  owner: string;
  repo: string;
}

/**
 * Owner and repository from a remote's URL: `https://host/owner/repo(.git)`, `ssh://git@host(:port)/owner/repo.git`,
 * scp-like `git@host:owner/repo.git`, `git://`. A path (a local or bare repository) names none.
 */
export function parseRemoteUrl(url: string): RemoteRepo | null {
  const trimmed = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(?:[^/@]*@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(trimmed);
  const scp = scheme ? null : /^(?:[^/@:]+@)?([^/:]+):(?!\/)(.+)$/.exec(trimmed);
  const host = scheme ? scheme[2] : scp?.[1];
  const path = scheme ? scheme[3] : scp?.[2];
  if (!host || !path || (scheme && !/^(https?|ssh|git|git\+ssh|ssh\+git)$/i.test(scheme[1]!))) return null;
  const parts = path.replace(/\/+$/, "").replace(/\.git$/, "").split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { host: host.toLowerCase(), owner: parts[0], repo: parts[1] };
}

/** As parseRemoteUrl, or an error that says which remote names no GitHub repository. */
export function remoteRepo(remote: string, url: string): RemoteRepo {
  const r = parseRemoteUrl(url);
  if (!r) throw new TroupeError("no_git_remote", `git remote '${remote}' (${url}) names no GitHub repository (owner/repo): a pull request needs one`);
  return r;
}

/** GitHub's REST API for a host: api.github.com for github.com, `https://<host>/api/v3` for an Enterprise server. */
export function defaultApiUrl(host: string): string {
  return host === "github.com" || host === "www.github.com" ? "https://api.github.com" : `https://${host}/api/v3`;
}
