/**
 * Same-run A/B of the dashboard's CPU while one of N agents streams: harness binaries (see
 * harness.ts; e.g. a copy of dist/bench-frames/harness built before a change, and the one built
 * now) alternate, each with a fresh streamer, no keys. Prints each binary's CPU per run and median.
 *
 *   bun scripts/bench/ab-stream.ts --bin A --bin B [--runs 3] [--agents 100] [--lines 40000] [--rate 5000] [--window-ms 4000]
 * Each harness starts with dashboardEnv() (harness.ts runHarness); a variable set in this
 * process's environment wins, e.g. JSC's own thresholds (BUN_JSC_thresholdForJITAfterWarmUp=500,
 * BUN_JSC_thresholdForOptimizeAfterWarmUp=1000, BUN_JSC_thresholdForOptimizeAfterLongWarmUp=1000)
 * to measure without the dashboard's.
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { BenchDaemon, benchArgs, fmt, median, runHarness, type HarnessFigures } from "./harness.ts";

const o = benchArgs(
  `usage: bun scripts/bench/ab-stream.ts --bin A --bin B [--runs 3] [--agents 100] [--lines 40000] [--rate 5000] [--window-ms 4000]
  the dashboard's CPU while one of --agents agents streams, no keys: harness binaries (dist/bench-frames/harness, built by
  many.ts, dashboard.ts or frames.ts; e.g. a copy of it built before a change), alternating; a --bin may carry a prefix ("bun --cpu-prof-md BIN")`,
  {
    bin: { type: "string", multiple: true, default: [] },
    runs: { type: "string", default: "3" },
    agents: { type: "string", default: "100" },
    lines: { type: "string", default: "40000" },
    rate: { type: "string", default: "5000" },
    "window-ms": { type: "string", default: "4000" },
  },
);
const LINES = Number(o.lines);
const RATE = Number(o.rate);
const bins = o.bin!;

function streamCommand(gate: string): string {
  const pause = (500 / RATE).toFixed(3);
  return `while [ ! -e ${gate} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do j=0; while [ $j -lt 500 ]; do echo "line $((i+j)) of the streaming agent: some text to make it look like output"; j=$((j+1)); done; i=$((i+500)); sleep ${pause}; done; sleep 600`;
}

const ws = new BenchDaemon();
const figures = new Map<string, HarnessFigures[]>(bins.map((b) => [b, []]));
try {
  ws.start();
  for (let i = Number(o.agents) - 1; i >= 1; i--) await ws.client.spawn({ provider: "generic", command: "sleep 600", name: `agent-${String(i).padStart(3, "0")}`, worktree: false, env: ws.spawnEnv });
  let n = 0;
  for (let r = 0; r < Number(o.runs); r++) {
    for (const bin of r % 2 ? [...bins].reverse() : bins) {
      const gate = join(ws.dir, `go-${n}`);
      const streamer = await ws.client.spawn({ provider: "generic", command: streamCommand(gate), name: `agent-000-${n++}`, worktree: false, env: ws.spawnEnv });
      const argv = bin.split(" ");
      const f = await runHarness(argv[0]!, [...argv.slice(1), "troupe", "--workspace", ws.dir, "--gate", gate, "--stream-lines", String(LINES), "--presses", "0", "--idle-ms", o["window-ms"]!], ws.env);
      figures.get(bin)!.push(f);
      console.log(`run ${r} ${bin}: ${fmt(f.cpuIdle)} % of a core, rss ${fmt(f.rssMB, 0)} MB; load ${loadavg()[0]!.toFixed(2)}`);
      await ws.client.stop(streamer.id).catch(() => undefined);
    }
  }
} finally {
  await ws.close();
}
for (const [bin, fs] of figures) console.log(`${bin}: median ${fmt(median(fs.map((f) => f.cpuIdle)))} % of a core (${fs.map((f) => fmt(f.cpuIdle)).join(", ")}); rss ${fs.map((f) => fmt(f.rssMB, 0)).join(", ")} MB`);
process.exit(0);
