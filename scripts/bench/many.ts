/**
 * A thousand agents: does the dashboard scale with what is on screen, not with the workspace?
 * Three workspaces on real daemons (dist/troupe), shell-command agents:
 *   many: 1,000 agents, 10 of them streaming (~100 lines/s each), the rest idle;
 *   ten:  the same 10 streaming agents alone;
 *   five: 5 idle agents.
 * In the same run, alternating:
 *   - the compiled dashboard's first frame in tmux (160x50) on `many`, on `five` (the issue's
 *     figure) and on `ten` (the same screen but for the list: a streaming agent's output in the
 *     pane) (tmux-frame.ts: time until "Agents (N)" shows, and the CPU used by then);
 *   - keypresses (j down the first 10 rows and back, 10 a second, so that at 1,000 as at 10 agents
 *     each press moves the selection by a row and none scrolls the list) in the frame harness (frame-harness.tsx,
 *     compiled like troupe) on `many` and on `ten`: keypress → frame p99, and the CPU of one
 *     keypress (the presses' window less the same time with no key: the streams cost both alike).
 * Prints the figures and their ratios; fails on nothing. Spawning 1,000 agents takes a minute or two.
 *
 *   npm run build && bun scripts/bench/many.ts [--agents 1000] [--streaming 10] [--runs 3] [--presses 60]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { TroupeClient } from "../../src/client/client.ts";
import { BIN, pct } from "./floor.ts";
import { benchArgs, buildHarness, fmt, median, recognised, removeSettled, runHarness, type HarnessFigures } from "./harness.ts";
import { TmuxFrames, type FirstFrame } from "./tmux-frame.ts";
import { runSync } from "../lib/process.ts";

const o = benchArgs(
  `usage: npm run build && bun scripts/bench/many.ts [--agents 1000] [--streaming 10] [--runs 3] [--presses 60]
  first frame and j keypresses of dist/troupe's dashboard at --agents agents against 5 and against the --streaming ones alone
  (spawns them all: a minute or two; stops them at the end)`,
  {
    agents: { type: "string", default: "1000" },
    streaming: { type: "string", default: "10" },
    runs: { type: "string", default: "3" },
    presses: { type: "string", default: "60" },
  },
);
const AGENTS = Number(o.agents);
const STREAMING = Number(o.streaming);
const RUNS = Number(o.runs);

const runtime = mkdtempSync("/tmp/tm-");
const frames = new TmuxFrames(runtime);
const streamCommand = (n: number) =>
  `i=0; while true; do j=0; while [ $j -lt 10 ]; do echo "agent ${n} line $i: some text to make it look like output"; i=$((i+1)); j=$((j+1)); done; sleep 0.1; done`;

class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), "troupe-many-"));
  readonly env: Record<string, string>;
  readonly client: TroupeClient;
  constructor(readonly name: string) {
    this.env = { ...process.env, TROUPE_WORKSPACE: this.dir, TROUPE_SOCKET: join(runtime, `${name}.sock`) } as Record<string, string>;
    this.client = new TroupeClient({ socket: this.env.TROUPE_SOCKET! });
  }

  async start(idle: number, streaming: number): Promise<void> {
    const r = runSync([BIN, "daemon", "start", "--workspace", this.dir], { env: this.env });
    if (r.exitCode !== 0) throw new Error(`could not start a daemon (${BIN}; npm run build first?): ${r.stderr.toString()}`);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const jobs = [
      ...Array.from({ length: idle }, (_, i) => ({ name: `idle-${String(i).padStart(4, "0")}`, command: "sleep 100000" })),
      ...Array.from({ length: streaming }, (_, i) => ({ name: `stream-${i}`, command: streamCommand(i) })),
    ];
    // a few at a time: the daemon spawns one after another anyway
    for (let i = 0; i < jobs.length; i += 8) {
      await Promise.all(jobs.slice(i, i + 8).map((j) => this.client.spawn({ provider: "generic", worktree: false, env, ...j })));
    }
  }

  command(): string {
    return `TROUPE_WORKSPACE='${this.dir}' TROUPE_SOCKET='${this.env.TROUPE_SOCKET}' exec '${BIN}'`;
  }

  async close(): Promise<void> {
    // agents outlive their daemon by design: end them by their process groups
    for (const a of await this.client.listAgents().catch(() => [])) {
      if (a.pid && (a.status === "running" || a.status === "starting")) {
        try {
          process.kill(-a.pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
    }
    await this.client.stopDaemon().catch(() => undefined);
    await removeSettled(this.dir);
  }
}

const many = new Workspace("many");
const ten = new Workspace("ten");
const five = new Workspace("five");
const firstMany: FirstFrame[] = [];
const firstFive: FirstFrame[] = [];
const firstTen: FirstFrame[] = [];
const keysMany: HarnessFigures[] = [];
const keysTen: HarnessFigures[] = [];
const t0 = performance.now();
try {
  const harness = await buildHarness();
  await many.start(AGENTS - STREAMING, STREAMING);
  await ten.start(0, STREAMING);
  await five.start(5, 0);
  process.stderr.write(`${AGENTS + STREAMING + 5} agents spawned in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  const keys = (ws: Workspace) => runHarness(harness.troupe, ["troupe", "--workspace", ws.dir, "--presses", o.presses!, "--pace", "100", "--span", String(STREAMING)], ws.env);
  for (let r = 0; r < RUNS; r++) {
    const f5 = await frames.firstFrame(five.command(), "Agents (5)", 160, 50);
    if (f5) firstFive.push(f5);
    const fm = await frames.firstFrame(many.command(), `Agents (${AGENTS})`, 160, 50);
    if (fm) firstMany.push(fm);
    const f10 = await frames.firstFrame(ten.command(), `Agents (${STREAMING})`, 160, 50);
    if (f10) firstTen.push(f10);
    keysTen.push(await keys(ten));
    keysMany.push(await keys(many));
  }
} finally {
  frames.close();
  await Promise.all([many.close(), ten.close(), five.close()]);
  rmSync(runtime, { recursive: true, force: true });
}

const med = (xs: number[]) => median(xs);
const latencies = (fs: HarnessFigures[]) => fs.flatMap((f) => f.latencies);
const ffMs = (fs: FirstFrame[]) => med(fs.map((f) => f.ms));
const ffCpu = (fs: FirstFrame[]) => med(fs.map((f) => f.cpu));
const perPress = (fs: HarnessFigures[]) => med(fs.map((f) => f.cpuPerPress));
console.log(`${AGENTS} agents (${STREAMING} streaming ~100 lines/s each), real daemons, shell agents; 160x50; ${RUNS} runs alternating; load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`  first frame (compiled, tmux): ${AGENTS} agents ${fmt(ffMs(firstMany), 0)} ms (CPU ${fmt(ffCpu(firstMany), 0)} ms), 5 agents ${fmt(ffMs(firstFive), 0)} ms (CPU ${fmt(ffCpu(firstFive), 0)} ms): ${fmt(ffMs(firstMany) / ffMs(firstFive), 2)}x time, ${fmt(ffCpu(firstMany) / ffCpu(firstFive), 2)}x CPU`);
// the same screen but for the list's length: a streaming agent selected, its output in the pane
console.log(`  first frame, ${STREAMING} streaming agents alone: ${fmt(ffMs(firstTen), 0)} ms (CPU ${fmt(ffCpu(firstTen), 0)} ms); ${AGENTS} against ${STREAMING}: ${fmt(ffMs(firstMany) / ffMs(firstTen), 2)}x time, ${fmt(ffCpu(firstMany) / ffCpu(firstTen), 2)}x CPU`);
console.log(`  keypress → frame at ${AGENTS} agents: p50 ${fmt(pct(latencies(keysMany), 50))} ms, p99 ${fmt(pct(latencies(keysMany), 99))} ms (${recognised(keysMany)} presses recognised); at ${STREAMING}: p50 ${fmt(pct(latencies(keysTen), 50))} ms, p99 ${fmt(pct(latencies(keysTen), 99))} ms (${recognised(keysTen)})`);
console.log(`  CPU of one j keypress: ${AGENTS} agents ${fmt(perPress(keysMany), 2)} ms, ${STREAMING} agents ${fmt(perPress(keysTen), 2)} ms: ${fmt(perPress(keysMany) / perPress(keysTen), 2)}x (per run: ${keysMany.map((f) => fmt(f.cpuPerPress, 1)).join(", ")} vs ${keysTen.map((f) => fmt(f.cpuPerPress, 1)).join(", ")})`);
console.log(`  dashboard CPU between keys (the streams): ${fmt(med(keysMany.map((f) => f.cpuIdle)), 2)} % at ${AGENTS}, ${fmt(med(keysTen.map((f) => f.cpuIdle)), 2)} % at ${STREAMING}`);
process.exit(0);
