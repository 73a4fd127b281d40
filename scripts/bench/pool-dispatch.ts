/**
 * Dispatch across a pool of hosts (issue 38): the same random DAG of N tasks of known durations
 * (each sleeps 1, 2 or 3 s, then commits one file; seeded, so both runs dispatch the same DAG),
 * run on 1 host (this machine, S slots) and on 3 hosts (this machine and two remotes, each a
 * workspace of its own behind a real sshd on 127.0.0.1, S slots each), through the compiled
 * binary. Per run:
 * - wall: from the tasks existing to the initiative completed;
 * - lower bound: the longer of the critical path (the known durations summed along the DAG's
 *   heaviest path) and the total duration over the slots;
 * - placement overhead per task: claimed → its agent running (this machine's spawn; a remote's
 *   push + spawn over the link), and its agent done → merged here (a remote's watch + fetch +
 *   merge), from the event logs of this daemon and each host's.
 * Usage: npm run build && bun scripts/bench/pool-dispatch.ts [tasks=30] [slots=2]
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../../tests/support/sandbox.ts";
import { ScriptedAgents } from "../../tests/support/dispatch-agents.ts";
import { Sshd } from "../../tests/support/sshd.ts";
import type { PhaseTree } from "../../src/protocol/work.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { openDatabase } from "../../src/runtime/sqlite.ts";
import { untilCompleted } from "./until-completed.ts";

const N = Number(process.argv[2] ?? 30);
const S = Number(process.argv[3] ?? 2);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]!;

/** A small seeded generator: the same DAG and durations for both runs. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** `slug → {deps, seconds}`: each task depends on up to 2 earlier ones with probability 0.4. */
function dag(): Map<string, { deps: string[]; seconds: number }> {
  const r = rng(38);
  const out = new Map<string, { deps: string[]; seconds: number }>();
  for (let i = 0; i < N; i++) {
    const deps = i > 0 && r() < 0.4 ? [...new Set(Array.from({ length: 1 + Math.floor(r() * 2) }, () => `t${Math.floor(r() * i)}`))] : [];
    out.set(`t${i}`, { deps, seconds: 1 + Math.floor(r() * 3) });
  }
  return out;
}

/** The makespan of a greedy list schedule on `slots`: in order, each task as soon as its dependencies end and a slot is free. */
function greedy(tasks: { slug: string; deps: string[]; ms: number }[], slots: number): number {
  const end = new Map<string, number>();
  const free: number[] = Array.from({ length: slots }, () => 0);
  let now = 0;
  const left = [...tasks];
  while (left.length) {
    const i = left.findIndex((t) => t.deps.every((d) => (end.get(d) ?? Infinity) <= now));
    const slot = free.indexOf(Math.min(...free));
    if (i < 0 || free[slot]! > now) {
      // the next moment something changes: a task ends or a slot frees
      now = Math.min(...[...end.values(), ...free].filter((x) => x > now));
      continue;
    }
    const t = left.splice(i, 1)[0]!;
    end.set(t.slug, now + t.ms);
    free[slot] = now + t.ms;
  }
  return Math.max(...end.values());
}

/** The events of a daemon's store, oldest first. */
function events(dir: string): { type: string; e: Record<string, Record<string, unknown>>; at: number }[] {
  const db = openDatabase(join(dir, ".troupe", "troupe.db"));
  db.exec("PRAGMA query_only = ON");
  const rows = db.query("SELECT type, payload, created_at FROM events ORDER BY id").all() as { type: string; payload: string; created_at: number }[];
  db.close();
  return rows.map((r) => ({ type: r.type, e: JSON.parse(r.payload), at: r.created_at }));
}

/** When each branch's agent first ran and was done, from a daemon's events. */
function agentTimes(dir: string): { running: Map<string, number>; done: Map<string, number> } {
  const running = new Map<string, number>();
  const done = new Map<string, number>();
  for (const { type, e, at } of events(dir)) {
    if (type !== "agent:updated" || typeof e.agent?.branch !== "string") continue;
    const branch = e.agent.branch;
    if (e.agent.status === "running" && !running.has(branch)) running.set(branch, at);
    if (e.agent.status === "done") done.set(branch, at);
  }
  return { running, done };
}

interface Host {
  name: string;
  sb: Sandbox;
  sshd: Sshd;
}

async function host(name: string): Promise<Host> {
  const sb = new Sandbox({ sandboxed: false });
  const home = join(sb.runtime, "home");
  mkdirSync(home);
  const sshd = await Sshd.start({ HOME: home, TROUPE_SOCKET: sb.socket, XDG_STATE_HOME: sb.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
  return { name, sb, sshd };
}

async function once(remotes: number): Promise<void> {
  const local = new Sandbox({ sandboxed: false });
  const hosts: Host[] = [];
  try {
    for (let i = 0; i < remotes; i++) hosts.push(await host(`h${i + 1}`));
    let env: Record<string, string> = {};
    if (hosts.length) {
      // one ssh config reaches every server: the first's key let in, each host key known
      const first = hosts[0]!.sshd;
      for (const h of hosts.slice(1)) {
        appendFileSync(join(h.sshd.dir, "authorized_keys"), readFileSync(join(first.dir, "user_key.pub")));
        const key = readFileSync(join(h.sshd.dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
        appendFileSync(join(first.dir, "known_hosts"), `[127.0.0.1]:${h.sshd.port} ${key}\n`);
      }
      env = { TROUPE_SSH_COMMAND: first.sshCommand, TROUPE_REMOTE_TIMEOUT: "10" };
      for (const h of hosts) await local.run(["remote", "add", h.name, `127.0.0.1:${h.sshd.port}`, "--path", h.sb.dir, "--troupe", BIN, "--slots", String(S)], { env });
    }
    mkdirSync(join(local.dir, ".troupe"), { recursive: true });
    writeFileSync(join(local.dir, ".troupe", "config.json"), JSON.stringify({ dispatch: { slots: S } }));
    const agents = new ScriptedAgents(local.runtime);
    const graph = dag();
    agents.script("plan", "plan", `mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: All\ndependsOn: []\n---\nAll of it.\n' > .troupe/output/phases/all.md`);
    agents.detail("all", Object.fromEntries([...graph].map(([s, t]) => [s, { title: `Task ${s}`, dependsOn: t.deps, files: [`${s}.txt`] }])));
    for (const [s, t] of graph) agents.commits(s, `${s}.txt`, s, `sleep ${t.seconds}`);
    const tree = () => local.json<PhaseTree>(["phases", "bench", "--json"], { env });
    await local.json(["initiative", "new", "Bench", "--goal", "g", "--json"], { env });
    await local.json(["plan", "bench", "--command", agents.command, "--json"], { env });
    await waitFor("the plan", async () => (await tree()).phases.length === 1, 30_000);
    await local.json(["approve", "--all", "bench", "--json"], { env });
    const slots = S * (remotes + 1);
    await local.json(["dispatch", "bench", "--concurrency", String(slots), "--command", agents.command, "--json"], { env });
    await waitFor("the tasks", async () => (await tree()).phases[0]!.tasks.length === N, 60_000);
    const t0 = Date.now();
    const done = await untilCompleted(tree);
    const wallMs = Date.now() - t0;


    // placement overhead, from the events: claim here, the agent's run on its host, the merge here
    const claimed = new Map<string, number>();
    for (const { type, e, at } of events(local.dir)) if (type === "task:updated" && e.task?.status === "in_progress" && e.task.branch === null && !claimed.has(e.task.id as string)) claimed.set(e.task.id as string, at);
    const times = new Map([["local", agentTimes(local.dir)], ...hosts.map((h) => [h.name, agentTimes(h.sb.dir)] as const)]);
    const work = (await (await unixFetch(local.socket, "http://troupe/v1/initiatives/bench/work")).json()) as { tasks: { id: string; mergedAt: number }[] };
    const merged = new Map(work.tasks.map((t) => [t.id, t.mergedAt]));
    const over: Record<string, { start: number[]; back: number[] }> = {};
    for (const t of done.phases[0]!.tasks) {
      const where = t.host ?? "local";
      const at = times.get(where)!;
      const o = (over[where] ??= { start: [], back: [] });
      o.start.push(at.running.get(t.branch!)! - claimed.get(t.id)!);
      o.back.push(merged.get(t.id)! - at.done.get(t.branch!)!);
    }
    // the bound: the DAG's heaviest path and the total over the slots, by the tasks' known durations, and by
    // their runs as measured (running to done on their host: the sleep, the commit, the signal)
    const bound = (ms: (slug: string) => number) => {
      const finish = new Map<string, number>();
      const path = (slug: string): number => finish.get(slug) ?? finish.set(slug, ms(slug) + Math.max(0, ...graph.get(slug)!.deps.map(path))).get(slug)!;
      const critical = Math.max(...[...graph.keys()].map(path));
      const total = [...graph.keys()].reduce((a, slug) => a + ms(slug), 0);
      return { critical, total, bound: Math.max(critical, total / slots) };
    };
    const bySlug = new Map(done.phases[0]!.tasks.map((t) => [t.slug, t]));
    const ran = (slug: string) => {
      const t = bySlug.get(slug)!;
      const at = times.get(t.host ?? "local")!;
      return at.done.get(t.branch!)! - at.running.get(t.branch!)!;
    };
    // ready (its last dependency merged) → claimed: how long a ready task waited for a pass and a slot
    const readyWait = done.phases[0]!.tasks.filter((t) => t.dependsOn.length).map((t) => claimed.get(t.id)! - Math.max(...t.dependsOn.map((d) => merged.get(d)!)));
    // a greedy schedule (the tasks' order, a slot each from claim to merge) with each task's hold as measured:
    // near the wall, dispatch lost nothing between tasks and the overhead is in the holds
    const hold = (slug: string) => merged.get(bySlug.get(slug)!.id)! - claimed.get(bySlug.get(slug)!.id)!;
    const greedyMs = greedy([...graph].map(([slug, t]) => ({ slug, deps: t.deps, ms: hold(slug) })), slots);
    if (process.env.BENCH_TRACE) {
      for (const t of done.phases[0]!.tasks) {
        const c = claimed.get(t.id)!;
        const r = t.dependsOn.length ? Math.max(...t.dependsOn.map((d) => merged.get(d)!)) : t0;
        const busy = done.phases[0]!.tasks.filter((o) => claimed.get(o.id)! <= r && merged.get(o.id)! > r).map((o) => `${o.slug}@${o.host}`);
        console.log(`${t.slug}@${t.host} ready +${r - t0} claimed +${c - t0} merged +${merged.get(t.id)! - t0}; held at ready: ${busy.join(" ")}`);
      }
    }
    const known = bound((slug) => graph.get(slug)!.seconds * 1000);
    const measured = bound(ran);
    const spread = Object.entries(over)
      .map(([h, o]) => {
        const sum = o.start.map((x, i) => x + o.back[i]!);
        return `${h} ${sum.length} tasks: p50 ${pct(sum, 0.5)} ms, p99 ${pct(sum, 0.99)} ms (start p50 ${pct(o.start, 0.5)}, back p50 ${pct(o.back, 0.5)})`;
      })
      .join("; ");
    console.log(
      `${remotes + 1} host${remotes ? "s" : ""}, ${slots} slots: wall ${(wallMs / 1000).toFixed(1)} s; lower bound by the known durations ${(known.bound / 1000).toFixed(1)} s (critical path ${(known.critical / 1000).toFixed(1)} s, total ${(known.total / 1000).toFixed(0)} s / ${slots}): wall/bound ${(wallMs / known.bound).toFixed(2)}; by the runs as measured ${(measured.bound / 1000).toFixed(1)} s (critical path ${(measured.critical / 1000).toFixed(1)} s): wall/bound ${(wallMs / measured.bound).toFixed(2)}; placement overhead per task (claim → running + done → merged): ${spread}; ready → claimed p50 ${pct(readyWait, 0.5)} ms, p99 ${pct(readyWait, 0.99)} ms; a greedy schedule of the holds as measured ${(greedyMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await local.close();
    for (const h of hosts) {
      await h.sb.close();
      h.sshd.close();
    }
  }
}

console.log(`${N} tasks of 1-3 s, a random DAG (seeded), ${S} slots a host`);
await once(0);
await once(2);
