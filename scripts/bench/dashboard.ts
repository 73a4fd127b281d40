/**
 * Dashboard benchmark: 100 agents, one streaming 100,000 lines at ~5,000 lines/s, on a real daemon
 * (dist/troupe) with shell-command agents. The dashboard runs in the frame harness
 * (frame-harness.tsx: compiled like troupe, drawing into a fake 160x50 terminal, keys on its stdin);
 * beside it, in the same run and alternating with it, the floor: a compiled Ink program (Ink as
 * published) drawing a screen of the same size whose j/k repaints two rows. Prints keypress → frame
 * p50/p99 (the dashboard's while the agent streams, the floor's), their ratio, how many presses'
 * frames were recognised (on the harness's virtual screen: every one, unless a frame never came),
 * the dashboard's CPU while streaming without keys, and the CPU of a keypress. With --base DIR, the
 * dashboard of another checkout (built by that checkout's own build, measured by this harness:
 * harness.ts `buildHarnessFrom`) runs too, in the same runs, alternating. Fails on nothing.
 *
 *   npm run build && bun scripts/bench/dashboard.ts [--runs 3] [--agents 100] [--lines 100000] [--rate 5000] [--presses 100] [--base DIR]
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { pct } from "./floor.ts";
import { BenchDaemon, benchArgs, buildHarness, buildHarnessFrom, fmt, median, recognised, runHarness, type HarnessFigures } from "./harness.ts";

const USAGE = `usage: npm run build && bun scripts/bench/dashboard.ts [--runs 3] [--agents 100] [--lines 100000] [--rate 5000] [--presses 100] [--base DIR]
  keypress → frame p50/p99 of the dashboard while one of --agents agents streams, against a compiled Ink program's (the floor)
  --base DIR   also the dashboard of another checkout, e.g.: mkdir DIR && git archive main | tar -x -C DIR && ln -s $PWD/node_modules DIR/`;
const o = benchArgs(USAGE, {
  runs: { type: "string", default: "3" },
  agents: { type: "string", default: "100" },
  lines: { type: "string", default: "100000" },
  rate: { type: "string", default: "5000" },
  presses: { type: "string", default: "100" },
  base: { type: "string" },
});
const RUNS = Number(o.runs);
const AGENTS = Number(o.agents);
const LINES = Number(o.lines);
const RATE = Number(o.rate);

const ws = new BenchDaemon();
const { dir, env, client, spawnEnv } = ws;

/** A shell agent that waits for `gate`, writes LINES lines at RATE a second (500 at a time), then stays running. */
function streamCommand(gate: string): string {
  const pause = (500 / RATE).toFixed(3);
  return `while [ ! -e ${gate} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do j=0; while [ $j -lt 500 ]; do echo "line $((i+j)) of the streaming agent: some text to make it look like output"; j=$((j+1)); done; i=$((i+500)); sleep ${pause}; done; sleep 600`;
}

const floors: HarnessFigures[] = [];
const dashboards: HarnessFigures[] = [];
const bases: HarnessFigures[] = [];
try {
  ws.start();
  const harness = await buildHarness();
  const baseHarness = o.base ? await buildHarnessFrom(o.base) : null;
  for (let i = AGENTS - 1; i >= 1; i--) await client.spawn({ provider: "generic", command: "sleep 600", name: `agent-${String(i).padStart(3, "0")}`, worktree: false, env: spawnEnv });
  for (let r = 0; r < RUNS; r++) {
    floors.push(await runHarness(harness.floor, ["floor", "--presses", o.presses!]));
    const order: [string, HarnessFigures[]][] = [[harness.troupe, dashboards]];
    if (baseHarness) order[r % 2 ? "push" : "unshift"]([baseHarness, bases]);
    for (const [bin, into] of order) {
      // a fresh streamer each run: the newest running agent, so the one selected
      const gate = join(dir, `go-${r}-${into.length}-${into === bases ? "base" : "new"}`);
      const streamer = await client.spawn({ provider: "generic", command: streamCommand(gate), name: `agent-000-${r}${into === bases ? "b" : ""}`, worktree: false, env: spawnEnv });
      into.push(await runHarness(bin, ["troupe", "--workspace", dir, "--gate", gate, "--stream-lines", String(LINES), "--presses", o.presses!], env));
      await client.stop(streamer.id).catch(() => undefined);
    }
  }
} finally {
  await ws.close();
}

const all = (fs: HarnessFigures[]) => fs.flatMap((f) => f.latencies);
const p = (fs: HarnessFigures[], q: number) => pct(all(fs), q);
const med = (fs: HarnessFigures[], k: keyof HarnessFigures) => median(fs.map((f) => f[k] as number));
console.log(`dashboard benchmark: ${AGENTS} agents (real daemon, shell agents), one streaming ${LINES.toLocaleString("en")} lines at ~${RATE.toLocaleString("en")} lines/s; 160x50; ${RUNS} runs, each the floor then the dashboard${o.base ? " then the base" : ""}; load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const seen = (fs: HarnessFigures[]) => `${recognised(fs)} presses recognised`;
console.log(`  floor (compiled Ink program, same-size screen, 2 rows per key): keypress → frame p50 ${fmt(p(floors, 50))} ms, p99 ${fmt(p(floors, 99))} ms (${seen(floors)}); CPU per keypress ${fmt(med(floors, "cpuPerPress"))} ms`);
for (const [name, fs] of [["dashboard", dashboards], ...(o.base ? [[`base (${o.base})`, bases]] : [])] as [string, HarnessFigures[]][]) {
  console.log(`  ${name}, while one agent streams: keypress → frame p50 ${fmt(p(fs, 50))} ms, p99 ${fmt(p(fs, 99))} ms (${seen(fs)}); p99 / floor p99 ${fmt(p(fs, 99) / p(floors, 99), 2)}x`);
  console.log(`    CPU while streaming, no keys: ${fmt(med(fs, "cpuIdle"))} % of a core (median of runs); with keys ${fmt(med(fs, "cpuPresses"))} %; per keypress ${fmt(med(fs, "cpuPerPress"))} ms`);
  console.log(`    first frame in the harness: ${fmt(med(fs, "firstFrameMs"), 0)} ms (floor ${fmt(med(floors, "firstFrameMs"), 0)} ms); RSS at the end ${fmt(med(fs, "rssMB"), 0)} MB`);
}
process.exit(0);
