/**
 * The frame harness (frame-harness.tsx) compiled like troupe: the dashboard as it ships (Ink
 * patched), the same with Ink as published, and the floor (Ink as published); and a run of any, as
 * its own process.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { TroupeClient } from "../../src/client/client.ts";
import { compileBinary } from "../../src/runtime/compile.ts";
import { dashboardEnv } from "../../src/runtime/process.ts";
import { BIN, ROOT, pct } from "./floor.ts";
import { run, runSync } from "../lib/process.ts";

/** What a harness run prints (one JSON line). */
export interface HarnessFigures {
  mode: "troupe" | "floor";
  firstFrameMs: number;
  /** One per press whose frame was recognised on the screen (ms from the key to the write that showed it). */
  latencies: number[];
  /** The presses made: `latencies.length` of them were recognised. */
  presses: number;
  /** Reading the writes onto the virtual screen (CPU ms; left out of the CPU figures). */
  screenMs: number;
  /** CPU of the presses' windows, less what the same time cost with no key in windows between them (ms per press). */
  cpuPerPress: number;
  /** CPU as % of a core: while idle (or streaming without keys), and during the presses. */
  cpuIdle: number;
  cpuPresses: number;
  frames: number;
  /** Writes to the terminal during the idle window (a clock tick is one). */
  idleWrites: number;
  windowS: number;
  rssMB: number;
  streamed?: number;
}

export interface Harness {
  /** troupe's dashboard as it ships (Ink patched). */
  troupe: string;
  /** The same dashboard built with Ink as published (patches/ink+8.0.0.patch left out). */
  troupeStock: string;
  /** The Ink floor program, Ink as published. */
  floor: string;
}

/** Builds the harness binaries under dist/bench-frames. */
export async function buildHarness(): Promise<Harness> {
  const dir = join(ROOT, "dist", "bench-frames");
  mkdirSync(dir, { recursive: true });
  const entry = join(import.meta.dirname, "frame-harness.tsx");
  const h: Harness = { troupe: join(dir, "harness"), troupeStock: join(dir, "harness-stock-ink"), floor: join(dir, "harness-floor") };
  for (const [outfile, stockInk] of [
    [h.troupe, false],
    [h.troupeStock, true],
    [h.floor, true],
  ] as const) {
    const r = await compileBinary({ entry, outfile, define: {}, stockInk });
    if (!r.ok) throw new Error(`building ${outfile}: ${r.errors.join("; ")}`);
  }
  return h;
}

/**
 * The harness built from another checkout (`dir`, e.g. `git archive main | tar -x -C dir`, with this
 * checkout's node_modules linked in) with Ink as published: the dashboard as that commit draws it.
 */
export async function buildBaseHarness(dir: string): Promise<string> {
  const entry = join(dir, "scripts", "bench", "frame-harness.tsx");
  copyFileSync(join(import.meta.dirname, "frame-harness.tsx"), entry);
  const outfile = join(ROOT, "dist", "bench-frames", "harness-base");
  const r = await compileBinary({ entry, outfile, define: {}, stockInk: true });
  if (!r.ok) throw new Error(`building ${outfile}: ${r.errors.join("; ")}`);
  return outfile;
}

/**
 * The harness built from another checkout of troupe (`dir`: e.g. `git archive main | tar -x -C dir`
 * with this checkout's node_modules linked in) by that checkout's own build (its plugins, its Ink
 * patch), with this checkout's frame-harness.tsx and screen.ts: the dashboard as that commit draws
 * it, measured as this harness measures. The two files are copied into `dir`, so a git checkout
 * (a worktree someone works in) is refused: its tracked files would be overwritten.
 */
export async function buildHarnessFrom(dir: string): Promise<string> {
  const at = resolve(dir);
  if (!existsSync(join(at, "src", "runtime", "compile.ts"))) throw new Error(`${dir}: not a troupe checkout (no src/runtime/compile.ts)`);
  if (existsSync(join(at, ".git"))) throw new Error(`${dir}: a git checkout, whose scripts/bench files this would overwrite; give an archive (git archive REF | tar -x -C DIR)`);
  for (const f of ["frame-harness.tsx", "screen.ts"]) copyFileSync(join(import.meta.dirname, f), join(at, "scripts", "bench", f));
  const build = (await import(join(at, "src", "runtime", "compile.ts"))) as { compileBinary: typeof compileBinary };
  const outfile = join(ROOT, "dist", "bench-frames", "harness-from-base");
  mkdirSync(join(ROOT, "dist", "bench-frames"), { recursive: true });
  const r = await build.compileBinary({ entry: join(at, "scripts", "bench", "frame-harness.tsx"), outfile, define: {} });
  if (!r.ok) throw new Error(`building ${outfile} from ${dir}: ${r.errors.join("; ")}`);
  return outfile;
}

/** A benchmark's flags (node:util parseArgs) with --help: the usage on --help (exit 0), a one-line error and the usage on a bad flag (exit 2). */
export function benchArgs<T extends NonNullable<ParseArgsConfig["options"]>>(usage: string, options: T) {
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } }, strict: true });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${usage}\n`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed.values as ReturnType<typeof parseArgs<{ options: T }>>["values"];
}

/**
 * Runs a harness binary to its end; its figures, or an Error with what it said. It starts with the
 * variables the dashboard restarts itself with (dashboardEnv(): the runtime's quiet settings and
 * JIT thresholds), as the dashboard runs; a variable `env` sets wins.
 */
export async function runHarness(bin: string, args: string[], env: Record<string, string | undefined> = process.env): Promise<HarnessFigures> {
  const { stdout: out, stderr: err, exitCode: code } = await run([bin, ...args], { env: { ...dashboardEnv(), ...env } });
  const line = out.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as HarnessFigures;
  } catch {
    throw new Error(`${bin} ${args.join(" ")} exited ${code}: ${err.trim().split("\n").slice(-3).join(" / ")}`);
  }
}

export const median = (xs: number[]): number => pct(xs, 50);
/** "N of M": the presses whose frames the harness recognised, of those made, over runs. */
export const recognised = (fs: HarnessFigures[]): string => `${fs.reduce((n, f) => n + f.latencies.length, 0)} of ${fs.reduce((n, f) => n + f.presses, 0)}`;
export const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");

/**
 * Removes a benchmark's workspace folder, and again a moment later: a daemon told to stop and the
 * wrappers of the agents it stopped finish writing there (logs, pid and exit files) after they
 * answered, and a folder removed once came back.
 */
export async function removeSettled(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((r) => setTimeout(r, 1_000));
  rmSync(dir, { recursive: true, force: true });
}

/** A workspace (a git repo) with its own daemon (dist/troupe) under temp folders, for a benchmark's agents. */
export class BenchDaemon {
  readonly dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
  private readonly runtime = mkdtempSync("/tmp/tb-");
  readonly env: Record<string, string> = { ...process.env, TROUPE_WORKSPACE: this.dir, TROUPE_SOCKET: join(this.runtime, "d.sock") } as Record<string, string>;
  readonly client = new TroupeClient({ socket: this.env.TROUPE_SOCKET! });
  /** What agents are spawned with: a PATH, nothing of this process's. */
  readonly spawnEnv: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

  start(): void {
    const id = { GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
    for (const args of [["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "init"]]) runSync(["git", ...args], { cwd: this.dir, env: { ...this.env, ...id } });
    const started = runSync([BIN, "daemon", "start", "--workspace", this.dir], { env: this.env });
    if (started.exitCode !== 0) throw new Error(`could not start the daemon (${BIN}; npm run build first?): ${started.stderr.toString()}`);
  }

  /** Stops every live agent and the daemon, and removes the folders. */
  async close(): Promise<void> {
    for (const a of await this.client.listAgents().catch(() => [])) if (a.status === "running" || a.status === "starting") await this.client.stop(a.id).catch(() => undefined);
    await this.client.stopDaemon().catch(() => undefined);
    await removeSettled(this.dir);
    rmSync(this.runtime, { recursive: true, force: true });
  }
}
