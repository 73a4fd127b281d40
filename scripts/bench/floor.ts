/**
 * What the start-up and round-trip benchmarks (ask.ts, spawn.ts) share: percentiles, the machine's
 * load printed beside each figure (other work on a 2-core machine moves every timing), the CPU a
 * child used (less moved by load than its wall time), and the floors measured in the same run:
 * a compiled Bun hello-world (process start and exit, nothing of troupe), and a bare HTTP exchange
 * over a Unix socket (what Bun costs before any of troupe's request path).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";

export const ROOT = resolve(import.meta.dir, "../..");
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

/** Runs argv to its end: wall time from spawn to exit, and the CPU it used. */
export async function timeProcess(argv: string[], env: Record<string, string | undefined>): Promise<Timed> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, stdout: "ignore", stderr: "pipe" });
  const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  const wall = performance.now() - t0;
  const r = p.resourceUsage();
  const cpu = r ? Number(r.cpuTime.user + r.cpuTime.system) / 1000 : NaN;
  return { wall, cpu, code, stderr };
}

/**
 * A compiled Bun program that writes one line and exits, built like troupe (bytecode, minified):
 * the floor under any compiled command on this machine.
 */
export async function helloBinary(): Promise<string> {
  const dir = join(ROOT, "dist", "bench-hello");
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, "hello.ts");
  writeFileSync(entry, `import { writeSync } from "node:fs";\nwriteSync(1, "hello\\n");\n`);
  const outfile = join(dir, "hello");
  const r = await compileBinary({ entry, outfile, define: {} });
  if (!r.ok) throw new Error(`building the hello-world: ${r.errors.join("; ")}`);
  return outfile;
}

/**
 * A bare Bun.serve on a Unix socket in its own process, answering every request with a small
 * JSON body at once: the floor under a round trip of three requests to the daemon.
 */
export async function bareServer(socket: string): Promise<{ stop: () => void }> {
  const code = `Bun.serve({ unix: ${JSON.stringify(socket)}, async fetch(req) { if (req.method === "POST") await req.text(); return Response.json({ conversation: { id: "cv_1", answer: "a" } }); } });`;
  const proc = Bun.spawn([process.execPath, "-e", code], { stdout: "ignore", stderr: "inherit" });
  for (let i = 0; i < 500; i++) {
    try {
      await fetch("http://floor/", { unix: socket });
      return { stop: () => proc.kill() };
    } catch {
      await Bun.sleep(10);
    }
  }
  proc.kill();
  throw new Error("the bare server did not start");
}
