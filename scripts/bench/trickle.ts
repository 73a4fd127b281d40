/**
 * Many agents each writing a little: N agents (idle `sleep`s; the script appends to their output
 * files, as the agents' own O_APPEND writes would, so no interpreter per line is measured), each
 * getting one stamped line a second, spread evenly over the second. Over several windows prints the
 * daemon's CPU (% of one core, and per line), the write→subscriber latency of the output events
 * (p50/p99), and checks that every line arrived once, in order, per agent (loss/duplication is
 * reported, never asserted on time). The machine's load average is printed beside each figure:
 * others share this machine. Prints figures; fails on nothing. Needs a build (npm run build).
 *
 * Measured in the same run, on the same writes, beside the daemon (so the same load moves them all):
 *  - two floors (trickle-floor.ts, compiled like troupe) watching the same folders: fs.watch per
 *    folder + reading the grown bytes from an open fd; and that plus one bun:sqlite insert per line
 *    (WAL, synchronous=NORMAL). What is above the second is troupe's own;
 *  - with --base BIN, a second daemon (another build) with its own N agents, getting the same lines.
 *
 *   bun scripts/bench/trickle.ts [--agents 200] [--window 60] [--windows 3] [--rate 1] [--base BIN]
 *                                [--source] [--profile DIR]
 * (TROUPE_BIN=path measures another build; --source runs the daemon from source (bun src/main.ts),
 * --profile also under `bun --cpu-prof-md`, leaving the profile in DIR when it stops.)
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { TroupeClient } from "../../src/client/client.ts";
import { compileBinary } from "../../src/runtime/compile.ts";
import { runtime, sleep } from "../../src/runtime/process.ts";
import { start, type Running } from "../lib/process.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = process.env.TROUPE_BIN ?? join(ROOT, "dist/troupe");
const { values: o } = parseArgs({
  options: {
    agents: { type: "string", default: "200" },
    window: { type: "string", default: "60" },
    windows: { type: "string", default: "3" },
    rate: { type: "string", default: "1" },
    base: { type: "string" },
    source: { type: "boolean", default: false },
    profile: { type: "string" },
  },
});
const N = Number(o.agents);
const WINDOW_S = Number(o.window);
const WINDOWS = Number(o.windows);
const RATE = Number(o.rate); // lines a second per agent
const TICK_HZ = 100;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const median = (xs: number[]) => pct(xs, 50);
const now = () => performance.timeOrigin + performance.now();
const ticks = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(f[11]) + Number(f[12]);
};

/** One daemon under test: its workspace, its agents' output files, and what its subscriber saw. */
interface Daemon {
  label: string;
  bin: string;
  dir: string;
  runtime: string;
  env: Record<string, string>;
  client: TroupeClient;
  pid: number;
  names: string[];
  fds: number[];
  expected: number[];
  latencies: number[];
  lost: number;
  reordered: number;
  abort: AbortController;
  reading: Promise<void>;
}

/** A process measured beside the daemons: its CPU per window. */
interface Measured {
  label: string;
  pid: number;
  cpus: number[];
  p99s: number[];
}

async function startDaemon(label: string, bin: string, fromSource: boolean): Promise<Daemon> {
  const dir = mkdtempSync(join(tmpdir(), "troupe-trickle-"));
  const runtime = mkdtempSync("/tmp/ti-");
  const socket = join(runtime, "d.sock");
  const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
  const client = new TroupeClient({ socket });
  const d: Daemon = { label, bin, dir, runtime, env, client, pid: 0, names: [], fds: [], expected: new Array<number>(N).fill(0), latencies: [], lost: 0, reordered: 0, abort: new AbortController(), reading: Promise.resolve() };
  if (fromSource) {
    const prof = o.profile ? ["--cpu-prof-md", `--cpu-prof-dir=${o.profile}`] : [];
    start([process.execPath, ...prof, join(ROOT, "src/main.ts"), "daemon", "run", "--workspace", dir], { env, stdout: "ignore", stderr: "ignore" });
    for (let t = 0; t < 100 && !(await client.health().then(() => true, () => false)); t++) await sleep(100);
  } else await start([bin, "daemon", "start"], { env, stdout: "ignore" }).exited;
  d.pid = (await client.health()).pid;
  for (let i = 0; i < N; i++) {
    const a = await client.spawn({ provider: "generic", command: "sleep 100000", worktree: false, env, name: `t${i}` });
    d.names.push(a.name);
  }
  for (const name of d.names) d.fds.push(openSync(join(dir, ".troupe", "logs", name, "1.out"), "a"));

  // the subscriber: latency, and per agent every sequence number once and in order
  const index = new Map(d.names.map((n, i) => [n, i]));
  const events = await client.openEvents(null, d.abort.signal);
  const nameOf = new Map((await client.listAgents()).map((a) => [a.id, a.name]));
  d.reading = (async () => {
    for await (const { event } of events) {
      if (event.type !== "agent:output") continue;
      const i = index.get(nameOf.get(event.chunk.agentId) ?? "");
      if (i === undefined) continue;
      const t = now();
      for (const line of event.chunk.data.split("\n")) {
        if (!line) continue;
        const m = /^\{"t":([\d.]+),"k":(\d+)\}$/.exec(line);
        if (!m) continue;
        const k = Number(m[2]);
        if (k > d.expected[i]!) d.lost += k - d.expected[i]!;
        else if (k < d.expected[i]!) d.reordered++;
        d.expected[i] = Math.max(d.expected[i]!, k + 1);
        d.latencies.push(t - Number(m[1]));
      }
    }
  })().catch(() => undefined);
  return d;
}

async function stopDaemon(d: Daemon): Promise<void> {
  d.abort.abort();
  await d.reading;
  for (const fd of d.fds) closeSync(fd);
  for (const name of d.names) await d.client.stop(name).catch(() => undefined);
  await start([d.bin, "daemon", "stop"], { env: d.env, stdout: "ignore" }).exited;
  rmSync(d.dir, { recursive: true, force: true });
  rmSync(d.runtime, { recursive: true, force: true });
}

/** The floor program, compiled like troupe (bytecode, minified). */
async function floorBinary(): Promise<string> {
  const out = join(ROOT, "dist", "bench-trickle-floor");
  mkdirSync(out, { recursive: true });
  const outfile = join(out, "trickle-floor");
  const r = await compileBinary({ entry: join(import.meta.dirname, "trickle-floor.ts"), outfile, define: {} });
  if (!r.ok) throw new Error(`building the floor: ${r.errors.join("; ")}`);
  return outfile;
}

const daemons: Daemon[] = [];
const floors: { label: string; proc: Running }[] = [];
const scratch = mkdtempSync(join(tmpdir(), "troupe-trickle-floor-"));
try {
  const floorBin = await floorBinary();
  daemons.push(await startDaemon(o.base ? "this build" : "daemon", BIN, o.source || o.profile !== undefined));
  if (o.base) daemons.push(await startDaemon("base", o.base, false));
  const list = join(scratch, "folders");
  writeFileSync(list, daemons[0]!.names.map((n) => join(daemons[0]!.dir, ".troupe", "logs", n)).join("\n") + "\n");
  for (const [label, args] of [
    ["floor: fs.watch + read", ["watch", list]],
    ["floor: + sqlite insert", ["sqlite", list, join(scratch, "floor.db")]],
  ] as const) {
    floors.push({ label, proc: start([floorBin, ...args], { stdout: "pipe", stderr: "inherit" }) });
  }

  // the writers: one line to one agent every 1000/(N*RATE) ms, round-robin; each daemon gets the same line
  const sent = new Array<number>(N).fill(0);
  let next = 0;
  const gapMs = 1000 / (N * RATE);
  let writing = true;
  const writer = (async () => {
    const t0 = performance.now();
    let k = 0;
    while (writing) {
      const due = t0 + k * gapMs;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      // catch up on what a late wake-up missed, as agents would have written it meanwhile
      while (t0 + k * gapMs <= performance.now() && writing) {
        const line = `{"t":${now()},"k":${sent[next]!++}}\n`;
        for (const d of daemons) writeSync(d.fds[next]!, line);
        next = (next + 1) % N;
        k++;
      }
    }
  })();

  await sleep(5_000); // the tailer's follow and sweep timers reach their steady state
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; ${N} agents × ${RATE} line/s; ${WINDOWS} windows of ${WINDOW_S} s`);
  const measured: Measured[] = [
    ...daemons.map((d) => ({ label: d.label, pid: d.pid, cpus: [], p99s: [] })),
    ...floors.map((f) => ({ label: f.label, pid: f.proc.pid, cpus: [], p99s: [] })),
  ];
  for (let w = 0; w < WINDOWS; w++) {
    for (const d of daemons) d.latencies = [];
    const load0 = loadavg()[0]!;
    const before = measured.map((m) => ticks(m.pid));
    const t0 = performance.now();
    const sent0 = sent.reduce((s, x) => s + x, 0);
    await sleep(WINDOW_S * 1000);
    const secs = (performance.now() - t0) / 1000;
    const lines = sent.reduce((s, x) => s + x, 0) - sent0;
    console.log(`  window ${w + 1}: ${lines} lines, load ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
    measured.forEach((m, i) => {
      const cpu = ((ticks(m.pid) - before[i]!) / TICK_HZ / secs) * 100;
      m.cpus.push(cpu);
      const d = daemons.find((x) => x.pid === m.pid);
      const lat = d ? `, latency p50 ${pct(d.latencies, 50).toFixed(1)} ms p99 ${pct(d.latencies, 99).toFixed(1)} ms` : "";
      if (d) m.p99s.push(pct(d.latencies, 99));
      console.log(`    ${m.label}: cpu ${cpu.toFixed(2)} % (${((cpu * 10 * secs) / lines).toFixed(3)} ms per line)${lat}`);
    });
  }
  writing = false;
  await writer;
  // every line written must arrive
  const total = sent.reduce((s, x) => s + x, 0);
  const got = (d: Daemon) => d.expected.reduce((s, x) => s + x, 0);
  for (let t = 0; t < 100 && daemons.some((d) => got(d) < total); t++) await sleep(100);
  console.log(`median of ${WINDOWS} windows (% of a core):`);
  for (const m of measured) {
    const d = daemons.find((x) => x.pid === m.pid);
    const check = d ? `, latency p99 ${median(m.p99s).toFixed(1)} ms; lines ${total} written, ${got(d) - d.lost} received in order, ${d.lost + (total - got(d))} missing, ${d.reordered} out of order` : "";
    console.log(`  ${m.label}: cpu ${median(m.cpus).toFixed(2)} %${check}`);
  }
  for (const f of floors) f.proc.kill("SIGTERM");
  for (const f of floors) {
    const seen = Number((await f.proc.output()).stdout.trim());
    console.log(`  ${f.label}: saw ${seen} lines (of ${total}, ${total - seen} before it started or missed)`);
  }
} finally {
  for (const f of floors) f.proc.kill();
  for (const d of daemons) await stopDaemon(d);
  rmSync(scratch, { recursive: true, force: true });
}
