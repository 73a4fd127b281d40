/**
 * What the stress scripts share: a throwaway workspace (a git repo under /tmp with its own short
 * socket path), a runner for the compiled binary, and the two ways of counting the workspace's
 * daemons (the flock holder of `.troupe/daemon.lock`, and `troupe daemon run` processes whose
 * environment names this workspace's socket). The CI forms pass a tests/support Sandbox instead,
 * which has the same shape.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { unixFetch } from "../../src/runtime/serve.ts";
import { run, runSync } from "../lib/process.ts";

// a relative TROUPE_BIN is the project's (as in tests/support/sandbox.ts), whatever folder a workspace runs it from
export const BIN = resolve(import.meta.dirname, "../..", process.env.TROUPE_BIN ?? "dist/troupe");

/** A workspace and how to reach its daemon; a tests/support Sandbox is one. */
export interface StressWorkspace {
  dir: string;
  socket: string;
  env: Record<string, string>;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Troupe Stress",
  GIT_AUTHOR_EMAIL: "stress@troupe.invalid",
  GIT_COMMITTER_NAME: "Troupe Stress",
  GIT_COMMITTER_EMAIL: "stress@troupe.invalid",
};

/** A git repo with one commit under /tmp; `remove()` stops its daemon and deletes it. */
export function tempWorkspace(prefix: string): StressWorkspace & { remove(): Promise<void> } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `troupe-${prefix}-`)));
  const runtime = mkdtempSync("/tmp/ts-"); // a socket path must stay short
  const socket = join(runtime, "d.sock");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TROUPE_")) env[k] = v;
  Object.assign(env, GIT_IDENTITY, { TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket, NO_COLOR: "1" });
  const git = (...args: string[]) => {
    const r = runSync(["git", ...args], { cwd: dir, env });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  };
  git("init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "# stress\n");
  git("add", ".");
  git("commit", "-q", "-m", "initial");
  const ws = { dir, socket, env };
  return {
    ...ws,
    async remove() {
      await troupe(ws, ["daemon", "stop"]);
      rmSync(dir, { recursive: true, force: true });
      rmSync(runtime, { recursive: true, force: true });
    },
  };
}

/** Runs `troupe ARGS` in the workspace to completion. */
export async function troupe(ws: StressWorkspace, args: string[]): Promise<RunResult> {
  const { exitCode: code, stdout, stderr } = await run([BIN, ...args], { cwd: ws.dir, env: ws.env });
  return { code, stdout, stderr };
}

/** One request to the daemon over its socket, as the person (no token). */
export async function api<T>(ws: StressWorkspace, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await unixFetch(ws.socket, `http://troupe${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Pids holding the flock on `.troupe/daemon.lock`, from /proc/locks (the kernel's own word). */
export function lockHolders(ws: StressWorkspace): number[] {
  let inode: number;
  try {
    inode = statSync(join(ws.dir, ".troupe", "daemon.lock")).ino;
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const line of readFileSync("/proc/locks", "utf8").split("\n")) {
    // "1: FLOCK  ADVISORY  WRITE 12345 08:01:67890 0 EOF"
    const f = line.trim().split(/\s+/);
    if (f[1] !== "FLOCK" || f.includes("->")) continue;
    if (Number(f[5]?.split(":")[2]) === inode) pids.add(Number(f[4]));
  }
  return [...pids];
}

/** Live `troupe daemon run` processes (`deno run ... main.js daemon run` on Deno) started for this workspace's socket (pgrep, then their environment). */
export function daemonProcesses(ws: StressWorkspace): number[] {
  const out = runSync(["pgrep", "-f", " daemon run"]).stdout;
  return out
    .split("\n")
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`TROUPE_SOCKET=${ws.socket}`);
      } catch {
        return false; // gone meanwhile
      }
    });
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `--name value` (or `--name=value`) flags of a script's argv. */
export function flags(argv: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument '${a}'`);
    const [k, v] = a.includes("=") ? [a.slice(2, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a.slice(2), argv[++i] ?? ""];
    m.set(k, v);
  }
  return m;
}

export function numberFlag(f: Map<string, string>, name: string, fallback: number): number {
  const v = f.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got '${v}'`);
  return n;
}
