/**
 * The compiled dashboard's memory, as a person runs it: `dist/troupe` in a 160x50 tmux window
 * on a workspace with 100 agents, one of them streaming 100,000 lines at ~5,000 lines/s.
 * Samples the dashboard process's RSS every second while the output streams and after it ends.
 * Prints figures; fails on nothing. Needs tmux.
 *   npm run build && bun scripts/bench/dashboard-rss.ts [options]
 *     --agents N     agents in the workspace, the streamer included (default 100)
 *     --lines N      lines the streamer writes (default 100000; 0: no stream, the agents stay idle)
 *     --idle S       seconds sampled with nothing streaming: after the stream, or all of it (default 5)
 *     --runs N       runs per build (default 1)
 *     --base PATH    another build (an older one) measured in the same runs, alternating with this one
 *     --env K=V      set in the dashboard's environment (repeatable), e.g. BUN_GC_TIMER_DISABLE=1
 *     --fresh        start at once, with the idle agents seconds old (default: wait until they are a minute old)
 * TROUPE_BIN=path measures another build instead of dist/troupe.
 * Every run shares the workspace and its idle agents; each restarts the daemon with its own build
 * (a client refuses an older daemon and restarts a newer one's) and starts a fresh streamer, the
 * newest running agent, so it is the one selected. Agents seconds old redraw the list up to once
 * per visible row per second (each row's elapsed time ticks on its own phase), which weighs on
 * CPU and RSS; a person's agents are mostly older, hence the wait.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadavg, tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { sleep } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";

const { values: opt } = parseArgs({
  options: {
    agents: { type: "string", default: "100" },
    lines: { type: "string", default: "100000" },
    idle: { type: "string", default: "5" },
    runs: { type: "string", default: "1" },
    base: { type: "string" },
    env: { type: "string", multiple: true, default: [] },
    fresh: { type: "boolean", default: false },
  },
});
const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dirname, "../../dist/troupe");
const AGENTS = Number(opt.agents);
const LINES = Number(opt.lines);
const IDLE_S = Number(opt.idle);
const RUNS = Number(opt.runs);
const builds = opt.base ? [{ name: "base", bin: opt.base }, { name: "this", bin: BIN }] : [{ name: "this", bin: BIN }];
const dashEnv = opt.env.map((kv) => `'${kv}'`).join(" ");

const dir = mkdtempSync(join(tmpdir(), "troupe-rss-"));
const runtime = mkdtempSync("/tmp/tq-");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: join(runtime, "d.sock") } as Record<string, string>;
const tmux = (...args: string[]) => runSync(["tmux", "-S", join(runtime, "tmux.sock"), ...args], { env });
/** The build whose daemon runs now: a client refuses a newer build's daemon. */
let current = builds[0]!.bin;
const troupe = (args: string[]) => runSync([current, ...args], { env, stdout: "pipe", stderr: "pipe" });
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const cpuTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
};

interface Run {
  start: number;
  streaming: number[];
  after: number[];
  cpuS: number;
}

async function once(bin: string, name: string): Promise<Run> {
  const gate = join(dir, `go-${name}`);
  current = bin;
  troupe(["daemon", "restart"]);
  if (LINES > 0) {
    const stream = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do j=0; while [ $j -lt 500 ]; do echo "line $((i+j)) of the streaming agent: some text to make it look like output"; j=$((j+1)); done; i=$((i+500)); sleep 0.1; done; troupe signal done`;
    troupe(["spawn", "--no-worktree", "--name", name, "--command", stream]);
  }
  tmux("new-session", "-d", "-s", "rss", "-x", "160", "-y", "50", `exec env ${dashEnv} '${bin}'`);
  let pid = 0;
  for (let t = 0; t < 100 && !pid; t++) {
    await sleep(100);
    pid = Number(tmux("display-message", "-p", "-t", "rss", "#{pane_pid}").stdout.toString().trim()) || 0;
  }
  await sleep(1500);
  const start = rssMB(pid);
  const cpu0 = cpuTicks(pid);
  const streaming: number[] = [];
  if (LINES > 0) {
    writeFileSync(gate, "");
    for (;;) {
      await sleep(1000);
      streaming.push(rssMB(pid));
      const a = JSON.parse(troupe(["ls", "--json"]).stdout.toString()).find((x: { name: string }) => x.name === name);
      if (a.status !== "running" || streaming.length > 120) break;
    }
  }
  const after: number[] = [];
  for (let i = 0; i < IDLE_S; i++) {
    await sleep(1000);
    after.push(rssMB(pid));
  }
  const cpuS = (cpuTicks(pid) - cpu0) / 100;
  tmux("kill-server");
  return { start, streaming, after, cpuS };
}

try {
  for (let i = 1; i < AGENTS; i++) troupe(["spawn", "--no-worktree", "--name", `idle-${i}`, "--command", "sleep 100000"]);
  // from the last spawn: every idle agent past its first minute
  if (!opt.fresh) await sleep(61_000);
  const results = new Map<string, Run[]>(builds.map((b) => [b.name, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const b of builds) results.get(b.name)!.push(await once(b.bin, `streamer-${r}-${b.name}`));
  }
  const what = LINES > 0 ? `one streaming ${LINES.toLocaleString("en")} lines at ~5,000 lines/s` : "none streaming";
  console.log(`compiled dashboard, ${AGENTS} agents (${opt.fresh ? "seconds" : "over a minute"} old), ${what}, 160x50 (tmux), ${RUNS} run(s) per build${dashEnv ? `, dashboard env ${dashEnv}` : ""}; load ${loadavg()[0]!.toFixed(2)} (1-min avg)`);
  for (const b of builds) {
    const runs = results.get(b.name)!;
    const f = (x: number) => x.toFixed(0);
    console.log(`${b.name}: ${b.bin}`);
    for (const run of runs) {
      const line = [`  start ${f(run.start)} MB`];
      if (run.streaming.length) line.push(`streaming (${run.streaming.length} s): median ${f(median(run.streaming))}, max ${f(Math.max(...run.streaming))}, min ${f(Math.min(...run.streaming))} MB`);
      line.push(`${LINES > 0 ? "after" : "idle"}: ${run.after.map(f).join(" ")} MB`, `CPU ${run.cpuS.toFixed(2)} s`);
      console.log(line.join(" · "));
    }
    const all = runs.flatMap((r) => r.streaming);
    const idle = runs.flatMap((r) => r.after);
    console.log(
      `  over ${runs.length} run(s): start median ${f(median(runs.map((r) => r.start)))} MB` +
        (all.length ? `; streaming median ${f(median(all))} MB, max ${f(Math.max(...all))} MB` : "") +
        (idle.length ? `; ${LINES > 0 ? "after" : "idle"} median ${f(median(idle))} MB, max ${f(Math.max(...idle))} MB` : ""),
    );
  }
} finally {
  tmux("kill-server");
  // agents outlive the daemon by design: end this run's ones by their process groups
  for (const a of JSON.parse(troupe(["ls", "--json"]).stdout.toString() || "[]") as { pid: number | null }[]) {
    if (a.pid) {
      try {
        process.kill(-a.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  troupe(["daemon", "stop"]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
