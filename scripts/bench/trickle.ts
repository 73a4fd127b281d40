/**
 * Many agents each writing a little: N agents (idle `sleep`s; the script appends to their output
 * files, as the agents' own O_APPEND writes would, so no interpreter per line is measured), each
 * getting one stamped line a second, spread evenly over the second. Over several windows prints the
 * daemon's CPU (% of one core, and per line), the write→subscriber latency of the output events
 * (p50/p99), and checks that every line arrived once, in order, per agent (loss/duplication is
 * reported, never asserted on time). The machine's load average is printed beside each figure:
 * others share this machine. Prints figures; fails on nothing. Needs a build (npm run build).
 *
 *   bun scripts/bench/trickle.ts [--agents 200] [--window 60] [--windows 3] [--rate 1] [--profile DIR]
 * (TROUPE_BIN=path measures another build; --profile runs the daemon from source under
 * `bun --cpu-prof-md` and leaves the profile in DIR when it stops.)
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { TroupeClient } from "../../src/client/client.ts";

const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dir, "../../dist/troupe");
const { values: o } = parseArgs({
  options: {
    agents: { type: "string", default: "200" },
    window: { type: "string", default: "60" },
    windows: { type: "string", default: "3" },
    rate: { type: "string", default: "1" },
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

const dir = mkdtempSync(join(tmpdir(), "troupe-trickle-"));
const runtime = mkdtempSync("/tmp/ti-");
const socket = join(runtime, "d.sock");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
const fds: number[] = [];
const names: string[] = [];
const client = new TroupeClient({ socket });
try {
  if (o.profile) {
    const main = resolve(import.meta.dir, "../../src/main.ts");
    Bun.spawn(["bun", "--cpu-prof-md", `--cpu-prof-dir=${o.profile}`, main, "daemon", "run", "--workspace", dir], { env, stdout: "ignore", stderr: "ignore" });
    for (let t = 0; t < 100 && !(await client.health().then(() => true, () => false)); t++) await Bun.sleep(100);
  } else await Bun.spawn([BIN, "daemon", "start"], { env, stdout: "ignore" }).exited;
  const pid = (await client.health()).pid;
  for (let i = 0; i < N; i++) {
    const a = await client.spawn({ provider: "generic", command: "sleep 100000", worktree: false, env, name: `t${i}` });
    names.push(a.name);
  }
  for (const name of names) fds.push(openSync(join(dir, ".troupe", "logs", name, "1.out"), "a"));
  const index = new Map(names.map((n, i) => [n, i]));

  // the subscriber: latency, and per agent every sequence number once and in order
  const abort = new AbortController();
  const events = await client.openEvents(null, abort.signal);
  const nameOf = new Map((await client.listAgents()).map((a) => [a.id, a.name]));
  const expected = new Array<number>(N).fill(0);
  let latencies: number[] = [];
  let lost = 0;
  let reordered = 0;
  const reading = (async () => {
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
        if (k > expected[i]!) lost += k - expected[i]!;
        else if (k < expected[i]!) reordered++;
        expected[i] = Math.max(expected[i]!, k + 1);
        latencies.push(t - Number(m[1]));
      }
    }
  })().catch(() => undefined);

  // the writers: one line to one agent every 1000/(N*RATE) ms, round-robin
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
      if (wait > 1) await Bun.sleep(wait);
      // catch up on what a late wake-up missed, as agents would have written it meanwhile
      while (t0 + k * gapMs <= performance.now() && writing) {
        writeSync(fds[next]!, `{"t":${now()},"k":${sent[next]!++}}\n`);
        next = (next + 1) % N;
        k++;
      }
    }
  })();

  await Bun.sleep(5_000); // the tailer's follow and sweep timers reach their steady state
  console.log(`machine: ${navigator.hardwareConcurrency} cores, bun ${Bun.version}; ${N} agents × ${RATE} line/s; ${WINDOWS} windows of ${WINDOW_S} s`);
  const cpus: number[] = [];
  const p99s: number[] = [];
  for (let w = 0; w < WINDOWS; w++) {
    latencies = [];
    const load0 = loadavg()[0]!;
    const a = ticks(pid);
    const t0 = performance.now();
    const sent0 = sent.reduce((s, x) => s + x, 0);
    await Bun.sleep(WINDOW_S * 1000);
    const secs = (performance.now() - t0) / 1000;
    const lines = sent.reduce((s, x) => s + x, 0) - sent0;
    const cpu = ((ticks(pid) - a) / TICK_HZ / secs) * 100;
    cpus.push(cpu);
    p99s.push(pct(latencies, 99));
    console.log(
      `  window ${w + 1}: daemon cpu ${cpu.toFixed(2)} % (${((cpu * 10 * secs) / lines).toFixed(3)} ms per line, ${lines} lines), ` +
        `latency p50 ${pct(latencies, 50).toFixed(1)} ms p99 ${pct(latencies, 99).toFixed(1)} ms; load ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
    );
  }
  writing = false;
  await writer;
  // every line written must arrive
  const total = sent.reduce((s, x) => s + x, 0);
  for (let t = 0; t < 100 && expected.reduce((s, x) => s + x, 0) < total; t++) await Bun.sleep(100);
  const got = expected.reduce((s, x) => s + x, 0);
  abort.abort();
  await reading;
  console.log(`median: daemon cpu ${median(cpus).toFixed(2)} % of a core, latency p99 ${median(p99s).toFixed(1)} ms; ` + `lines ${total} written, ${got - lost} received in order, ${lost + (total - got)} missing, ${reordered} out of order`);
} finally {
  for (const fd of fds) closeSync(fd);
  for (const name of names) await client.stop(name).catch(() => undefined);
  await Bun.spawn([BIN, "daemon", "stop"], { env, stdout: "ignore" }).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
