/**
 * What the start-up and round-trip benchmarks (ask.ts, spawn.ts) share: percentiles, the machine's
 * load printed beside each figure (other work on a 2-core machine moves every timing), the CPU a
 * child used (less moved by load than its wall time), and the floors measured in the same run, on
 * the runtime of the build measured: a hello-world (process start and exit, nothing of troupe),
 * and a bare HTTP exchange over a Unix socket (what the runtime costs before any of troupe's
 * request path).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";
import { DENO_BUNDLE_FLAGS, DENO_RUN_FLAGS } from "../../src/runtime/deno/flags.ts";
import { sleep } from "../../src/runtime/process.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { runSync, start } from "../lib/process.ts";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = process.env.TROUPE_BIN ?? join(ROOT, "dist", "troupe");

export const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
export const ms = (v: number): string => `${v.toFixed(2)} ms`;
export const load = (): string => `load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`;

/** `label: median X, p99 Y (n runs) · load` */
export function line(label: string, xs: number[], extra = ""): string {
  return `${label}: median ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))} (${xs.length} runs)${extra} · ${load()}`;
}

/** CPU (user + system, all threads) a running process has used so far, from /proc (10 ms ticks). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface Timed {
  wall: number;
  /** user + system CPU of the child */
  cpu: number;
  code: number;
  stderr: string;
}

/** CPU (user + system) of this process's children that have ended, from /proc (10 ms ticks). */
function endedChildrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * Runs argv to its end: wall time from spawn to exit, and the CPU it used, read as this process's
 * ended children's CPU before and after (10 ms ticks: a mean over runs is right, a median is not).
 * The children run one at a time.
 */
export async function timeProcess(argv: string[], env: Record<string, string | undefined>): Promise<Timed> {
  const cpu0 = endedChildrenCpuMs();
  const t0 = performance.now();
  const { exitCode: code, stderr } = await start(argv, { env, stdout: "ignore", stderr: "pipe" }).output();
  const wall = performance.now() - t0;
  return { wall, cpu: endedChildrenCpuMs() - cpu0, code, stderr };
}

/**
 * A program that writes one line and exits, on `runtime` and built as troupe is (Bun: compiled,
 * bytecode, minified; Deno: a .js file run with troupe's flags): the floor under any command.
 */
export async function helloCommand(runtime: "bun" | "deno"): Promise<string[]> {
  const dir = join(ROOT, "dist", "bench-hello");
  mkdirSync(dir, { recursive: true });
  const source = `import { writeSync } from "node:fs";\nwriteSync(1, "hello\\n");\n`;
  if (runtime === "deno") {
    const js = join(dir, "hello.js");
    writeFileSync(js, source);
    return [...runtimeCommand("deno"), ...DENO_BUNDLE_FLAGS, js];
  }
  const entry = join(dir, "hello.ts");
  writeFileSync(entry, source);
  const outfile = join(dir, "hello");
  const r = await compileBinary({ entry, outfile, define: {} });
  if (!r.ok) throw new Error(`building the hello-world: ${r.errors.join("; ")}`);
  return [outfile];
}

/** How to run a script (a floor) on `runtime`: this Bun itself, or the project's Deno with troupe's flags. */
export function runtimeCommand(runtime: "bun" | "deno"): string[] {
  if (runtime === "bun") return [process.execPath];
  return [join(ROOT, "node_modules", ".bin", "deno"), "run", ...DENO_RUN_FLAGS];
}

/** The runtime a troupe build runs on, as its --version says ("troupe 0.1.0 (deno 2.9.6)"). */
export function runtimeOf(bin: string): "bun" | "deno" {
  return /[(,] deno \d/.test(runSync([bin, "--version"]).stdout) ? "deno" : "bun";
}

/** A floor server (floor-server.ts) on `runtime`, ready once it answers on its socket; its pid for its CPU. */
async function startServer(runtime: "bun" | "deno", args: string[]): Promise<{ pid: number; stop: () => void }> {
  const socket = args[1]!;
  const proc = start([...runtimeCommand(runtime), join(import.meta.dirname, "floor-server.ts"), ...args], { stdout: "ignore", stderr: "inherit", env: { ...process.env, BUN_GC_TIMER_DISABLE: "1" } });
  for (let i = 0; i < 500; i++) {
    try {
      await unixFetch(socket, "http://floor/");
      return { pid: proc.pid, stop: () => proc.kill() };
    } catch {
      await sleep(10);
    }
  }
  proc.kill();
  throw new Error("a floor server did not start");
}

/** The runtime's bare server on a Unix socket in its own process: the floor under a round trip of three requests to the daemon. */
export function bareServer(runtime: "bun" | "deno", socket: string): Promise<{ pid: number; stop: () => void }> {
  return startServer(runtime, ["bare", socket]);
}

/** The floor under a daemon that keeps its questions: the runtime's bare server doing the exchange's SQLite writes (floor-server.ts). */
export function storeServer(runtime: "bun" | "deno", socket: string, dbPath: string): Promise<{ pid: number; stop: () => void }> {
  return startServer(runtime, ["store", socket, dbPath]);
}
