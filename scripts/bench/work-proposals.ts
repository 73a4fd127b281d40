/**
 * What the work model's store costs at plan size: proposing N phases with a random DAG in one
 * set (validation, cycle check, dependency-order insert, events), the tree, approve --all, and N
 * tasks under one phase. Prints median and p99 over several runs.
 * Usage: bun scripts/bench/work-proposals.ts [phases=200] [runs=7]
 */
import { join } from "node:path";
import { composeAgents } from "../../src/agents/compose.ts";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { createStore } from "../../src/store/index.ts";
import { WorkService } from "../../src/work/service.ts";
import { Sandbox } from "../../tests/support/sandbox.ts";

const N = Number(process.argv[2] ?? 200);
const RUNS = Number(process.argv[3] ?? 7);
const sb = new Sandbox();
const times: Record<string, number[]> = { propose: [], tree: [], approveAll: [], proposeTasks: [] };

/** A random DAG: each item depends on up to 3 earlier ones. */
const drafts = (prefix: string) =>
  Array.from({ length: N }, (_, i) => ({
    slug: `${prefix}${i}`,
    title: `Item ${i}`,
    body: "x".repeat(500),
    dependsOn: i === 0 ? [] : [...new Set(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => `${prefix}${Math.floor(Math.random() * i)}`))],
  })).reverse(); // listed dependents first: the insert must order them

const time = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const v = await fn();
  times[name]!.push(performance.now() - t0);
  return v;
};

try {
  for (let r = 0; r < RUNS; r++) {
    const log = new Logger(join(sb.runtime, "bench.log"));
    const store = createStore(join(sb.runtime, `b${r}.db`), log);
    const bus = new EventBus(store.events, log);
    const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
    const work = new WorkService({ root: sb.dir, store, bus, agents: composeAgents({ ws, store, bus, log, binDir: sb.runtime }).resume });
    const init = await work.createInitiative({ name: `bench ${r}`, goal: "g", review: "tasks" });
    const phases = await time("propose", () => work.proposePhases(init.id, null, drafts("p")));
    await time("tree", () => work.tree(init.id));
    await time("approveAll", () => work.approve({ ids: [], all: init.id }));
    await time("proposeTasks", () => work.proposeTasks(phases[0]!.id, null, drafts("t")));
    store.close();
  }
} finally {
  await sb.close();
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]!;
console.log(`${N} items per set, ${RUNS} runs (ms):`);
for (const [name, xs] of Object.entries(times)) console.log(`  ${name.padEnd(13)} median ${pct(xs, 0.5).toFixed(1).padStart(7)}  p99 ${pct(xs, 0.99).toFixed(1).padStart(7)}`);
