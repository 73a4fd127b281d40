/**
 * Dispatch at size: an initiative of N tasks (one phase, a random DAG: each task depends on up to
 * 3 earlier ones with probability 1/2) run by scripted agents that commit one file and signal at
 * once, dispatched at concurrency C through the compiled binary and a real daemon. Per run:
 * - wall: from `troupe dispatch` to the initiative completed;
 * - lower bound: the longest of the critical path (each task's own run, from its process running
 *   to its end processed, summed along the DAG's heaviest path) and the total run time / C;
 * - the daemon's overhead per task: spawn (claimed → its agent running) + merge (its agent done →
 *   merged), p50 and p99, read from the event log's timestamps;
 * - the daemon's RSS (VmRSS, sampled every 200 ms: peak and at the end).
 * Usage: npm run build && bun scripts/bench/dispatch.ts [tasks=200] [concurrency=8] [runs=2]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../../tests/support/sandbox.ts";
import { ScriptedAgents } from "../../tests/support/dispatch-agents.ts";
import type { PhaseTree } from "../../src/protocol/work.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { openDatabase } from "../../src/runtime/sqlite.ts";
import { untilCompleted } from "./until-completed.ts";

const N = Number(process.argv[2] ?? 200);
const C = Number(process.argv[3] ?? 8);
const RUNS = Number(process.argv[4] ?? 2);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]!;
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/** The random DAG as `slug → dependencies`. */
function dag(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < N; i++) {
    const deps = i > 0 && Math.random() < 0.5 ? [...new Set(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => `t${Math.floor(Math.random() * i)}`))] : [];
    out.set(`t${i}`, deps);
  }
  return out;
}

interface RunFigures {
  wallMs: number;
  boundMs: number;
  criticalMs: number;
  spawnMs: number[];
  mergeMs: number[];
  overheadMs: number[];
  rssPeakMiB: number;
  rssEndMiB: number;
}

async function once(): Promise<RunFigures> {
  const sb = new Sandbox();
  try {
    const agents = new ScriptedAgents(sb.runtime);
    const graph = dag();
    agents.script("plan", "plan", `mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: All\ndependsOn: []\n---\nAll of it.\n' > .troupe/output/phases/all.md`);
    agents.detail("all", Object.fromEntries([...graph].map(([s, deps]) => [s, { title: `Task ${s}`, dependsOn: deps }])));
    for (const s of graph.keys()) agents.commits(s, `${s}.txt`, s);
    const tree = () => sb.json<PhaseTree>(["phases", "bench", "--json"]);
    await sb.json(["initiative", "new", "Bench", "--goal", "g", "--json"]);
    await sb.json(["plan", "bench", "--command", agents.command, "--json"]);
    await waitFor("the plan", async () => (await tree()).phases.length === 1, 30_000);
    await sb.json(["approve", "--all", "bench", "--json"]);
    // detail alone first (concurrency is for tasks): the clock starts once the tasks exist
    await sb.json(["dispatch", "bench", "--concurrency", String(C), "--command", agents.command, "--json"]);
    await waitFor("the tasks", async () => (await tree()).phases[0]!.tasks.length === N, 60_000);
    const pid = (await sb.daemonPid())!;
    let peak = 0;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssKiB(pid));
      } catch {
        // the daemon is gone: the run fails below, with its log
      }
    }, 200);
    const t0 = Date.now();
    const done = await untilCompleted(tree);
    const wallMs = Date.now() - t0;
    clearInterval(sampler);
    const rssEnd = rssKiB(pid);
    peak = Math.max(peak, rssEnd);

    // timestamps from the daemon's own event log
    const db = openDatabase(join(sb.dir, ".troupe", "troupe.db"));
    db.exec("PRAGMA query_only = ON");
    const claimed = new Map<string, number>();
    const running = new Map<string, number>();
    const ended = new Map<string, number>();
    const taskOfAgent = new Map<string, string>();
    for (const row of db.query("SELECT type, payload, created_at FROM events ORDER BY id").all() as { type: string; payload: string; created_at: number }[]) {
      const e = JSON.parse(row.payload) as { task?: { id: string; status: string; agentId: string | null }; agent?: { id: string; status: string; taskId: string | null; mode: string | null } };
      if (row.type === "task:updated" && e.task!.status === "in_progress" && e.task!.agentId === null) claimed.set(e.task!.id, row.created_at);
      if (row.type === "agent:updated" && e.agent!.mode === "execute" && e.agent!.taskId) {
        taskOfAgent.set(e.agent!.id, e.agent!.taskId);
        if (e.agent!.status === "running" && !running.has(e.agent!.taskId)) running.set(e.agent!.taskId, row.created_at);
        if (e.agent!.status === "done") ended.set(e.agent!.taskId, row.created_at);
      }
    }
    db.close();
    const tasks = done.phases[0]!.tasks;
    const work = (await (await unixFetch(sb.socket, "http://troupe/v1/initiatives/bench/work")).json()) as { tasks: { id: string; mergedAt: number }[] };
    const merged = new Map(work.tasks.map((t) => [t.id, t.mergedAt]));
    const spawnMs: number[] = [];
    const mergeMs: number[] = [];
    const overheadMs: number[] = [];
    const runMs = new Map<string, number>();
    for (const t of tasks) {
      const s = running.get(t.id)! - claimed.get(t.id)!;
      const m = merged.get(t.id)! - ended.get(t.id)!;
      spawnMs.push(s);
      mergeMs.push(m);
      overheadMs.push(s + m);
      runMs.set(t.id, ended.get(t.id)! - running.get(t.id)!);
    }
    // the heaviest path through the DAG, by each task's own run time
    const finish = new Map<string, number>();
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const path = (id: string): number => {
      const known = finish.get(id);
      if (known !== undefined) return known;
      const t = byId.get(id)!;
      const v = runMs.get(id)! + Math.max(0, ...t.dependsOn.map(path));
      finish.set(id, v);
      return v;
    };
    const criticalMs = Math.max(...tasks.map((t) => path(t.id)));
    const totalRun = [...runMs.values()].reduce((a, b) => a + b, 0);
    return { wallMs, criticalMs, boundMs: Math.max(criticalMs, totalRun / C), spawnMs, mergeMs, overheadMs, rssPeakMiB: peak / 1024, rssEndMiB: rssEnd / 1024 };
  } catch (err) {
    // what the daemon said, before the workspace goes
    const log = readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8").split("\n");
    console.error(log.filter((l) => / (warn|error) /.test(l)).slice(-20).join("\n"));
    throw err;
  } finally {
    await sb.close();
  }
}

const runs: RunFigures[] = [];
for (let r = 0; r < RUNS; r++) {
  const f = await once();
  runs.push(f);
  console.log(
    `run ${r + 1}: wall ${(f.wallMs / 1000).toFixed(1)} s, lower bound ${(f.boundMs / 1000).toFixed(1)} s (critical path ${(f.criticalMs / 1000).toFixed(1)} s), ` +
      `wall/bound ${(f.wallMs / f.boundMs).toFixed(2)}; overhead per task p50 ${pct(f.overheadMs, 0.5)} ms p99 ${pct(f.overheadMs, 0.99)} ms ` +
      `(spawn p50 ${pct(f.spawnMs, 0.5)}/p99 ${pct(f.spawnMs, 0.99)}, merge p50 ${pct(f.mergeMs, 0.5)}/p99 ${pct(f.mergeMs, 0.99)}); daemon RSS peak ${f.rssPeakMiB.toFixed(0)} MiB, end ${f.rssEndMiB.toFixed(0)} MiB`,
  );
}
const all = (k: "overheadMs" | "spawnMs" | "mergeMs") => runs.flatMap((f) => f[k]);
console.log(
  `${N} tasks, concurrency ${C}, ${RUNS} runs: wall/bound median ${pct(runs.map((f) => f.wallMs / f.boundMs), 0.5).toFixed(2)}; ` +
    `overhead per task p50 ${pct(all("overheadMs"), 0.5)} ms, p99 ${pct(all("overheadMs"), 0.99)} ms (spawn ${pct(all("spawnMs"), 0.5)}/${pct(all("spawnMs"), 0.99)}, merge ${pct(all("mergeMs"), 0.5)}/${pct(all("mergeMs"), 0.99)}); ` +
    `RSS peak max ${Math.max(...runs.map((f) => f.rssPeakMiB)).toFixed(0)} MiB`,
);
