import { z } from "zod";
import { TroupeError, errorMessage } from "../errors.ts";
import type { RemoteRepo } from "./remote-repo.ts";

/** Each call to GitHub ends within this: a stuck server is an error, not a command that never returns. */
const CALL_MS = 20_000;

/** GitHub's REST API as a token reaches it. */
export interface GitHubApi {
  /** `https://api.github.com`, an Enterprise server's `https://host/api/v3`, or (tests) `http://127.0.0.1:port`. */
  baseUrl: string;
  token: string;
}

/** A pull request as troupe keeps it. */
export interface OpenPull {
  url: string;
  number: number;
}

const PullSchema = z.object({ html_url: z.string(), number: z.number().int() });
const ErrorSchema = z.object({ message: z.string().optional(), errors: z.array(z.object({ message: z.string().optional() }).loose()).optional() }).loose();

export interface NewPull {
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
}

/** The open pull request of `branch` (from the same repository), if there is one. */
export async function findOpenPull(api: GitHubApi, repo: RemoteRepo, branch: string): Promise<OpenPull | null> {
  const q = new URLSearchParams({ head: `${repo.owner}:${branch}`, state: "open" });
  const res = await call(api, "GET", `${pullsPath(repo)}?${q}`);
  const pulls = z.array(PullSchema).safeParse(await body(res));
  if (!pulls.success) throw new TroupeError("pull_request_failed", `GitHub's list of pull requests for ${repo.owner}/${repo.repo} is not what was expected`);
  const first = pulls.data[0];
  return first ? { url: first.html_url, number: first.number } : null;
}

/** Opens a pull request; an error names what GitHub refused (a 422's own words). */
export async function createPull(api: GitHubApi, repo: RemoteRepo, pull: NewPull): Promise<OpenPull> {
  const res = await call(api, "POST", pullsPath(repo), pull);
  const made = PullSchema.safeParse(await body(res));
  if (!made.success) throw new TroupeError("pull_request_failed", `GitHub's answer to opening a pull request on ${repo.owner}/${repo.repo} is not what was expected`);
  return { url: made.data.html_url, number: made.data.number };
}

function pullsPath(repo: RemoteRepo): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/pulls`;
}

async function call(api: GitHubApi, method: "GET" | "POST", path: string, json?: unknown): Promise<Response> {
  const url = `${api.baseUrl.replace(/\/+$/, "")}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${api.token}`,
        "x-github-api-version": "2022-11-28",
        "user-agent": "troupe",
        ...(json !== undefined && { "content-type": "application/json" }),
      },
      ...(json !== undefined && { body: JSON.stringify(json) }),
      signal: AbortSignal.timeout(CALL_MS),
      redirect: "error",
    });
  } catch (err) {
    const why = err instanceof Error && err.name === "TimeoutError" ? `no answer in ${CALL_MS / 1000} s` : errorMessage(err);
    throw new TroupeError("pull_request_failed", `cannot reach GitHub at ${api.baseUrl}: ${why}`, { cause: err });
  }
  if (res.ok) return res;
  throw await refusal(res, api, method, path);
}

async function body(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

async function refusal(res: Response, api: GitHubApi, method: string, path: string): Promise<TroupeError> {
  const parsed = ErrorSchema.safeParse(await body(res));
  const said = parsed.success ? [parsed.data.message, ...(parsed.data.errors ?? []).map((e) => e.message)].filter(Boolean).join(": ") : "";
  const what = `${method} ${path}`;
  if (res.status === 401) return new TroupeError("no_credentials", `GitHub at ${api.baseUrl} refused the token (401${said ? `: ${said}` : ""}): set github.token in the user config or GH_TOKEN`);
  if (res.status === 403 || res.status === 404) {
    return new TroupeError("pull_request_failed", `GitHub answered ${res.status} to ${what}${said ? ` (${said})` : ""}: the repository is not there, or the token may not open pull requests on it`);
  }
  return new TroupeError("pull_request_failed", `GitHub answered ${res.status} to ${what}${said ? `: ${said}` : ""}`);
}
