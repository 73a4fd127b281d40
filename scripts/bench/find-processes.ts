// What one stop's pass over /proc costs here: the processes seen and the time per pass
// (median, p99 over several runs). Run: bun scripts/bench/find-processes.ts
import { readdirSync } from "node:fs";
import { findProcesses, newMarker } from "../../src/agents/processes/find.ts";

const RUNS = 200;
const times: number[] = [];
const query = { markers: [newMarker(), newMarker()], groups: [] };
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  findProcesses(query);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
const procs = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).length;
process.stdout.write(`processes: ${procs}, runs: ${RUNS}, per pass: median ${at(0.5)} ms, p99 ${at(0.99)} ms\n`);
