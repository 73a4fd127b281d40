import { spawn } from "node:child_process";
import { z } from "zod";
import { TroupeError } from "../errors.ts";
import type { NewPull, OpenPull } from "./github-api.ts";
import type { RemoteRepo } from "./remote-repo.ts";

/** gh's calls end within this (it asks GitHub, which may hang). */
const GH_MS = 30_000;

interface Ran {
  /** null: gh could not be started (not installed). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** gh with the person's environment, never prompting; its output, or code null when it is not there. */
function gh(args: string[], env: Record<string, string>, input?: string): Promise<Ran> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let child;
    try {
      child = spawn("gh", args, { env: { ...env, GH_PROMPT_DISABLED: "1", NO_COLOR: "1", GH_NO_UPDATE_NOTIFIER: "1" }, stdio: ["pipe", "pipe", "pipe"], timeout: GH_MS });
    } catch {
      resolve({ code: null, stdout, stderr });
      return;
    }
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", () => resolve({ code: null, stdout, stderr }));
    child.on("close", (code, signal) => resolve({ code: signal ? -1 : (code ?? -1), stdout, stderr }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input ?? "");
  });
}

/** Whether gh is installed (on the caller's PATH) and logged in to the remote's host: then pull requests go through it. */
export async function ghLoggedIn(host: string, env: Record<string, string>): Promise<boolean> {
  const r = await gh(["auth", "status", "--hostname", host], env);
  return r.code === 0;
}

const repoArg = (r: RemoteRepo): string => `${r.host}/${r.owner}/${r.repo}`;

function failed(what: string, r: Ran): TroupeError {
  const last = r.stderr.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? (r.code === -1 ? `no answer in ${GH_MS / 1000} s` : `exit ${r.code}`);
  return new TroupeError("pull_request_failed", `gh ${what} failed: ${last}`);
}

const ListSchema = z.array(z.object({ url: z.string(), number: z.number().int() }));

export async function ghFindOpen(repo: RemoteRepo, branch: string, env: Record<string, string>): Promise<OpenPull | null> {
  const r = await gh(["pr", "list", "--repo", repoArg(repo), "--head", branch, "--state", "open", "--json", "url,number", "--limit", "1"], env);
  if (r.code !== 0) throw failed("pr list", r);
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    // said below
  }
  const list = ListSchema.safeParse(parsed);
  if (!list.success) throw new TroupeError("pull_request_failed", "gh pr list printed what was not its JSON list");
  return list.data[0] ?? null;
}

export async function ghCreate(repo: RemoteRepo, pull: NewPull, env: Record<string, string>): Promise<OpenPull> {
  const args = ["pr", "create", "--repo", repoArg(repo), "--head", pull.head, "--base", pull.base, "--title", pull.title, "--body-file", "-", ...(pull.draft ? ["--draft"] : [])];
  const r = await gh(args, env, pull.body);
  if (r.code !== 0) throw failed("pr create", r);
  const url = r.stdout.split("\n").map((l) => l.trim()).find((l) => /^https?:\/\/\S+\/pull\/\d+$/.test(l));
  if (!url) throw new TroupeError("pull_request_failed", "gh pr create printed no pull request URL");
  return { url, number: Number(/\/pull\/(\d+)$/.exec(url)![1]) };
}
