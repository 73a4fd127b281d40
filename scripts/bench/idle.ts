/**
 * What troupe costs while nothing happens. Three scenes, each measured over a window:
 *  1. young: the daemon, N agents (most running an idle command, a few done, a few waiting for
 *     an answer) just started, and M compiled dashboards, each in a 160x50 tmux window: every
 *     running row's elapsed time reads in seconds ("42s"), so it moves once a second on every
 *     dashboard (the agents are 1-3 s old when the window opens and cross a minute as it ends);
 *  2. settled: the same once every agent is over a minute old (see AGE_MS), the daemon restarted
 *     first, so every live agent is adopted (started by an earlier daemon: the case that used to
 *     be polled) and the dashboards have drawn and settled;
 *  3. the daemon alone with a large number of idle agents (restarted likewise).
 * CPU is utime+stime from /proc/<pid>/stat (all threads) over the window, as % of one core,
 * per process and in total; wakeups are context switches summed over the process's threads.
 * Prints figures; fails on nothing. Needs tmux and a build (npm run build).
 *
 *   bun scripts/bench/idle.ts [--agents 10] [--dashboards 3] [--window 60] [--many 200]
 *                             [--command 'sleep 100000'] [--settle 20] [--threads] [--no-young]
 *                             [--dashboard-env VAR=value ...] [--json]
 * (--many 0 skips scene 3, --no-young scene 1; --settle: seconds from the dashboards' start to
 * the window (in scene 1, to the agents' start);
 * --threads: each process's figures per thread (name and tid), busiest first;
 * --dashboard-env: variables the dashboards start with, e.g. to try a runtime setting;
 * TROUPE_BIN=path measures another build.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadavg, tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { runtime, sleep } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";

const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dirname, "../../dist/troupe");
const { values: o } = parseArgs({
  options: {
    agents: { type: "string", default: "10" },
    dashboards: { type: "string", default: "3" },
    window: { type: "string", default: "60" },
    many: { type: "string", default: "200" },
    command: { type: "string", default: "sleep 100000" },
    settle: { type: "string", default: "20" },
    threads: { type: "boolean", default: false },
    "dashboard-env": { type: "string", multiple: true, default: [] },
    json: { type: "boolean", default: false },
    "no-young": { type: "boolean", default: false },
  },
});
const AGENTS = Number(o.agents);
const DASHBOARDS = Number(o.dashboards);
const WINDOW_S = Number(o.window);
const MANY = Number(o.many);
// after its first frame a dashboard asks the daemon for the agent CLIs' versions (seconds of node start-ups)
const SETTLE_MS = Number(o.settle) * 1000;
/**
 * Idle agents are measured once each is over a minute old: a row that reads "42s" is redrawn
 * every second by design, one that reads "3m" once a minute.
 */
const AGE_MS = 62_000;
const DASHBOARD_ENV = o["dashboard-env"]!.length ? `env ${o["dashboard-env"]!.map((v) => `'${v}'`).join(" ")} ` : "";
const TICK_HZ = 100; // USER_HZ: /proc's clock ticks per second on Linux

interface ThreadSample {
  name: string;
  ticks: number;
  /** Time on a CPU in ns (schedstat: exact, where ticks come in 10 ms steps). */
  ns: number;
  switches: number;
}

interface Sample {
  ticks: number;
  /** Per thread id (threads come and go: each is counted from its own start). */
  threads: Map<string, ThreadSample>;
}

/** utime + stime (fields 14 and 15 of a stat line, counted after the command's closing paren). */
function statTicks(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(f[11]) + Number(f[12]);
}

/** utime + stime of the whole process (threads included, gone ones too) and each thread's. */
function sample(pid: number): Sample {
  const threads = new Map<string, ThreadSample>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/status`, "utf8");
      threads.set(t, {
        name: /^Name:\s+(.*)$/m.exec(s)?.[1] ?? "?",
        ticks: statTicks(readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8")),
        ns: Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]),
        switches: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(s)?.[1] ?? 0) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(s)?.[1] ?? 0),
      });
    } catch {
      // a thread that ended meanwhile
    }
  }
  return { ticks: statTicks(readFileSync(`/proc/${pid}/stat`, "utf8")), threads };
}

export interface ThreadFigure {
  name: string;
  tid: string;
  /** CPU ticks (1/100 s) over the window. */
  ticks: number;
  /** CPU time over the window, ms (from schedstat). */
  ms: number;
  switches: number;
}

function threadsBetween(a: Sample, b: Sample): ThreadFigure[] {
  const out: ThreadFigure[] = [];
  for (const [tid, t] of b.threads) {
    const was = a.threads.get(tid);
    out.push({ name: t.name, tid, ticks: t.ticks - (was?.ticks ?? 0), ms: (t.ns - (was?.ns ?? 0)) / 1e6, switches: t.switches - (was?.switches ?? 0) });
  }
  return out.sort((x, y) => y.switches - x.switches || y.ticks - x.ticks);
}

export interface ProcessFigure {
  name: string;
  pid: number;
  /** % of one core over the window (utime + stime: every thread's, gone ones too, in 10 ms ticks). */
  cpu: number;
  /** The same from the threads alive at the window's end, exact (schedstat): what a thread that ended took is missing. */
  threadsCpu: number;
  /** Context switches a second (each one a wakeup, give or take). */
  wakeups: number;
  /** Resident memory at the window's end, MB. */
  rssMB: number;
  threads: ThreadFigure[];
}

export interface SceneFigure {
  scene: string;
  windowS: number;
  processes: ProcessFigure[];
  totalCpu: number;
}

class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), "troupe-idle-"));
  private readonly runtime = mkdtempSync("/tmp/ti-");
  readonly env = { ...process.env, TROUPE_WORKSPACE: this.dir, TROUPE_SOCKET: join(this.runtime, "d.sock") } as Record<string, string>;

  troupe(args: string[]): string {
    const r = runSync([BIN, ...args], { env: this.env, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`troupe ${args.join(" ")}: ${r.stderr.toString().trim()}`);
    return r.stdout.toString();
  }

  tmux(...args: string[]): string {
    return runSync(["tmux", "-S", join(this.runtime, "tmux.sock"), ...args], { env: this.env }).stdout.toString();
  }

  daemonPid(): number {
    return (JSON.parse(this.troupe(["daemon", "status", "--json"])) as { pid: number }).pid;
  }

  async agentsSettled(count: number): Promise<void> {
    for (let t = 0; t < 600; t++) {
      const list = JSON.parse(this.troupe(["ls", "--json"])) as { status: string; pid: number | null }[];
      if (list.length >= count && list.every((a) => a.status !== "running" || a.pid !== null)) return;
      await sleep(100);
    }
    throw new Error("agents did not start");
  }

  close(): void {
    this.tmux("kill-server");
    for (const a of JSON.parse(this.troupe(["ls", "--json"])) as { name: string; status: string }[]) {
      if (a.status === "running") runSync([BIN, "stop", a.name], { env: this.env });
    }
    runSync([BIN, "daemon", "stop"], { env: this.env });
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.runtime, { recursive: true, force: true });
  }
}

async function measure(scene: string, procs: { name: string; pid: number }[]): Promise<SceneFigure> {
  const before = procs.map((p) => sample(p.pid));
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  const secs = (performance.now() - t0) / 1000;
  const processes = procs.map((p, i) => {
    const after = sample(p.pid);
    const threads = threadsBetween(before[i]!, after);
    return {
      ...p,
      cpu: ((after.ticks - before[i]!.ticks) / TICK_HZ / secs) * 100,
      threadsCpu: (threads.reduce((n, t) => n + t.ms, 0) / 1000 / secs) * 100,
      wakeups: threads.reduce((n, t) => n + t.switches, 0) / secs,
      rssMB: Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
      threads,
    };
  });
  return { scene, windowS: Math.round(secs), processes, totalCpu: processes.reduce((s, p) => s + p.cpu, 0) };
}

/** The mix of agents both dashboard scenes have: most idle, a few done, a few waiting for an answer. */
function spawnAgents(ws: Workspace): { done: number; waiting: number } {
  const done = Math.min(2, Math.floor(AGENTS / 5));
  const waiting = Math.min(2, Math.floor(AGENTS / 5));
  for (let i = 0; i < AGENTS - done - waiting; i++) ws.troupe(["spawn", "--no-worktree", "--name", `idle-${i}`, "--command", o.command!]);
  for (let i = 0; i < done; i++) ws.troupe(["spawn", "--no-worktree", "--name", `done-${i}`, "--command", "troupe signal done --result ok"]);
  for (let i = 0; i < waiting; i++) ws.troupe(["spawn", "--no-worktree", "--name", `wait-${i}`, "--command", "troupe signal questions --question 'which way?'"]);
  return { done, waiting };
}

/** Starts the dashboards in tmux windows; their processes, after the daemon's. */
async function startDashboards(ws: Workspace, procs: { name: string; pid: number }[]): Promise<void> {
  for (let i = 0; i < DASHBOARDS; i++) {
    ws.tmux(i === 0 ? "new-session" : "new-window", ...(i === 0 ? ["-d", "-s", "idle", "-x", "160", "-y", "50"] : ["-d", "-t", "idle:"]), `exec ${DASHBOARD_ENV}'${BIN}'`);
  }
  for (let t = 0; t < 100; t++) {
    const pids = ws.tmux("list-panes", "-s", "-t", "idle", "-F", "#{pane_pid}").split("\n").filter(Boolean).map(Number);
    if (pids.length === DASHBOARDS) {
      pids.forEach((pid, i) => procs.push({ name: `dashboard ${i + 1}`, pid }));
      break;
    }
    await sleep(100);
  }
  if (procs.length !== DASHBOARDS + 1) throw new Error(`${procs.length - 1} of ${DASHBOARDS} dashboards started`);
}

/** Scene 1: the dashboards up and settled first, then the agents started, then the window at once. */
async function youngAgents(): Promise<SceneFigure> {
  const ws = new Workspace();
  try {
    ws.troupe(["daemon", "start"]);
    const procs = [{ name: "daemon", pid: ws.daemonPid() }];
    await startDashboards(ws, procs);
    await sleep(SETTLE_MS);
    const { done, waiting } = spawnAgents(ws);
    await ws.agentsSettled(AGENTS);
    return await measure(`young: daemon + ${AGENTS} agents under a minute old (${done} done, ${waiting} waiting) + ${DASHBOARDS} dashboards (160x50, tmux)`, procs);
  } finally {
    ws.close();
  }
}

async function withDashboards(): Promise<SceneFigure> {
  const ws = new Workspace();
  try {
    const { done, waiting } = spawnAgents(ws);
    const spawned = Date.now();
    await ws.agentsSettled(AGENTS);
    ws.troupe(["daemon", "restart"]);
    const procs = [{ name: "daemon", pid: ws.daemonPid() }];
    await startDashboards(ws, procs);
    await sleep(Math.max(SETTLE_MS, spawned + AGE_MS - Date.now()));
    return await measure(`settled: daemon + ${AGENTS} idle agents over a minute old (${done} done, ${waiting} waiting) + ${DASHBOARDS} dashboards (160x50, tmux)`, procs);
  } finally {
    ws.close();
  }
}

async function manyAgents(): Promise<SceneFigure> {
  const ws = new Workspace();
  try {
    for (let i = 0; i < MANY; i++) ws.troupe(["spawn", "--no-worktree", "--name", `idle-${i}`, "--command", o.command!]);
    await ws.agentsSettled(MANY);
    ws.troupe(["daemon", "restart"]);
    const daemon = ws.daemonPid();
    await sleep(SETTLE_MS);
    return await measure(`many: daemon with ${MANY} idle agents`, [{ name: "daemon", pid: daemon }]);
  } finally {
    ws.close();
  }
}

const scenes: SceneFigure[] = [];
if (!o["no-young"]) scenes.push(await youngAgents());
scenes.push(await withDashboards());
if (MANY > 0) scenes.push(await manyAgents());
if (o.json) {
  console.log(JSON.stringify(scenes));
} else {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; CPU as % of one core over ${WINDOW_S} s; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  for (const s of scenes) {
    console.log(`${s.scene}, ${s.windowS} s:`);
    for (const p of s.processes) {
      console.log(
        `  ${p.name.padEnd(12)} pid ${String(p.pid).padEnd(8)} cpu ${p.cpu.toFixed(3).padStart(6)} %   wakeups ${p.wakeups.toFixed(2).padStart(5)}/s   live threads ${p.threadsCpu.toFixed(4)} %   RSS ${p.rssMB.toFixed(0)} MB`,
      );
      if (!o.threads) continue;
      for (const t of p.threads.filter((t) => t.switches > 0 || t.ms > 0)) {
        console.log(`      ${t.name.padEnd(16)} tid ${t.tid.padEnd(8)} ${t.ms.toFixed(2).padStart(8)} ms   switches ${String(t.switches).padStart(5)}`);
      }
    }
    console.log(`  total                       cpu ${s.totalCpu.toFixed(3).padStart(6)} %                     live threads ${s.processes.reduce((n, p) => n + p.threadsCpu, 0).toFixed(4)} %`);
  }
}
