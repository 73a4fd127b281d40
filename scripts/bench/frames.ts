/**
 * What a frame costs the dashboard, with Ink patched (patches/ink+8.0.0.patch, as troupe ships) and
 * with Ink as published, in the same run, alternating: the frame harness (frame-harness.tsx, compiled
 * like troupe, drawing into a fake 160x50 terminal) on a real daemon (dist/troupe) with shell agents.
 *  - tick: N agents under a minute old (spawned afresh each run), no key: every running row's
 *    elapsed time moves once a second. CPU over the window (% of a core, which is also ms of CPU per
 *    second, per tick) and the terminal writes a second.
 *  - change: one agent on screen (not the selected one) changes (a new cost, as `agent:updated`
 *    brings it), --changes times 10 a second: CPU of one change (the changes' windows less the
 *    same time with no change, in windows taken between them) and change → frame p50/p99.
 * --base DIR adds the dashboard of another checkout, built with Ink as published (e.g. main:
 * `mkdir DIR && git archive main | tar -x -C DIR && ln -s $PWD/node_modules DIR/`).
 * Prints figures and ratios; fails on nothing.
 *
 *   npm run build && bun scripts/bench/frames.ts [--runs 3] [--agents 10] [--idle-ms 5000] [--changes 40] [--base DIR]
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { pct } from "./floor.ts";
import { BenchDaemon, buildBaseHarness, buildHarness, fmt, median, runHarness, type HarnessFigures } from "./harness.ts";

const { values: o } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    agents: { type: "string", default: "10" },
    "idle-ms": { type: "string", default: "5000" },
    changes: { type: "string", default: "40" },
    base: { type: "string" },
  },
});
const RUNS = Number(o.runs);
const AGENTS = Number(o.agents);

const ws = new BenchDaemon();
const { dir, env, client, spawnEnv } = ws;

type Variant = "patched" | "stock" | "base";
const ticks: Record<Variant, HarnessFigures[]> = { patched: [], stock: [], base: [] };
const changes: Record<Variant, HarnessFigures[]> = { patched: [], stock: [], base: [] };
try {
  ws.start();
  const harness = await buildHarness();
  const bins: [Variant, string][] = [
    ["patched", harness.troupe],
    ["stock", harness.troupeStock],
  ];
  if (o.base) bins.push(["base", await buildBaseHarness(o.base)]);
  let young: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    for (const id of young) await client.stop(id).catch(() => undefined);
    young = [];
    for (let i = 0; i < AGENTS; i++) young.push((await client.spawn({ provider: "generic", command: "sleep 600", name: `young-${r}-${i}`, worktree: false, env: spawnEnv })).id);
    const order = r % 2 ? [...bins].reverse() : bins;
    for (const [v, bin] of order) ticks[v].push(await runHarness(bin, ["troupe", "--workspace", dir, "--presses", "0", "--idle-ms", o["idle-ms"]!], env));
    for (const [v, bin] of order) changes[v].push(await runHarness(bin, ["troupe", "--workspace", dir, "--scene", "change", "--presses", o.changes!, "--pace", "100", "--idle-ms", "2000"], env));
  }
} finally {
  await ws.close();
}

const med = (fs: HarnessFigures[], f: (x: HarnessFigures) => number) => median(fs.map(f));
const tickCpu = (v: Variant) => med(ticks[v], (f) => f.cpuIdle);
const writes = (v: Variant) => med(ticks[v], (f) => f.idleWrites / (Number(o["idle-ms"]) / 1000));
const perChange = (v: Variant) => med(changes[v], (f) => f.cpuPerPress);
const lat = (v: Variant, q: number) => pct(changes[v].flatMap((f) => f.latencies), q);
const variants: Variant[] = o.base ? ["patched", "stock", "base"] : ["patched", "stock"];
const label: Record<Variant, string> = { patched: "Ink patched (as shipped)", stock: "Ink as published", base: `base (${o.base}), Ink as published` };
console.log(`frame benchmark: dashboard in the frame harness, 160x50, real daemon, shell agents; ${RUNS} runs alternating; load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`  tick (${AGENTS} agents under a minute old, no key, ${o["idle-ms"]} ms window): CPU % of a core = ms of CPU a second (one tick a second)`);
for (const v of variants) console.log(`    ${label[v].padEnd(40)} ${fmt(tickCpu(v), 2)} % (runs: ${ticks[v].map((f) => fmt(f.cpuIdle, 2)).join(", ")}), ${fmt(writes(v), 1)} writes/s`);
console.log(`  one changed agent (its cost, ${o.changes} changes at 10/s): CPU per change, change → frame`);
for (const v of variants) console.log(`    ${label[v].padEnd(40)} ${fmt(perChange(v), 2)} ms (runs: ${changes[v].map((f) => fmt(f.cpuPerPress, 2)).join(", ")}), p50 ${fmt(lat(v, 50))} ms, p99 ${fmt(lat(v, 99))} ms (n=${changes[v].flatMap((f) => f.latencies).length})`);
console.log(`  patched / published: tick CPU ${fmt(tickCpu("patched") / tickCpu("stock"), 2)}x, CPU per change ${fmt(perChange("patched") / perChange("stock"), 2)}x, change p99 ${fmt(lat("patched", 99) / lat("stock", 99), 2)}x`);
if (o.base) console.log(`  patched / base: tick CPU ${fmt(tickCpu("patched") / tickCpu("base"), 2)}x, CPU per change ${fmt(perChange("patched") / perChange("base"), 2)}x`);
process.exit(0);
