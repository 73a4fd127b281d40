/**
 * What the phases view pays per published batch: applying a batch of task events to the work
 * state, and deriving the tree (sort, dependencies by slug) for a large initiative.
 * Prints median and p99 over several runs. `bun scripts/bench/phase-rows.ts [phases] [tasksPerPhase]`
 */
import { initialWork, workEvents, workSnapshot } from "../../src/ui/mirror/work-state.ts";
import { phaseRows } from "../../src/ui/phases/phase-rows.ts";
import { makeInitiative, makePhase, makeTask } from "../../tests/ui/helpers/fake-client.ts";
import type { Task } from "../../src/protocol/work.ts";

const PHASES = Number(process.argv[2] ?? 200);
const TASKS = Number(process.argv[3] ?? 10);
const RUNS = 200;

const i = makeInitiative();
const phases = Array.from({ length: PHASES }, (_, n) => makePhase(i, { status: n % 7 === 0 ? "proposed" : "approved" }));
for (let n = 1; n < phases.length; n++) phases[n]!.dependsOn = [phases[n - 1]!.id];
const tasks: Task[] = phases.flatMap((p) => Array.from({ length: TASKS }, () => makeTask(p, { status: "in_progress" })));
let work = workSnapshot(initialWork, { initiatives: [i], phases, tasks });

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(3)} ms · p99 ${s[Math.floor(s.length * 0.99)]!.toFixed(3)} ms`;
};

const apply: number[] = [];
const derive: number[] = [];
for (let r = 0; r < RUNS; r++) {
  // one published batch: 100 task updates (a storm, as the feed batches it at 30 Hz)
  const batch = Array.from({ length: 100 }, (_, k) => {
    const t = tasks[(r * 100 + k) % tasks.length]!;
    return { type: "task:updated" as const, task: { ...t, version: t.version + r + 1 } };
  });
  let t0 = performance.now();
  work = workEvents(work, batch);
  apply.push(performance.now() - t0);
  t0 = performance.now();
  phaseRows(work, {}, []);
  derive.push(performance.now() - t0);
}
console.log(`${PHASES} phases × ${TASKS} tasks (${PHASES * (TASKS + 1) + 1} rows), ${RUNS} runs`);
console.log(`apply a batch of 100 task events: ${stats(apply)}`);
console.log(`derive the tree:                  ${stats(derive)}`);
