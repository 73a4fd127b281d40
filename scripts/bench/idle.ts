/**
 * What troupe costs while nothing happens. Two scenes, each measured over a window:
 *  1. the daemon, N agents (most running an idle command, a few done, a few waiting for an
 *     answer) and M compiled dashboards, each in a 160x50 tmux window;
 *  2. the daemon alone with a large number of idle agents.
 * Before each window the daemon is restarted, so every live agent is adopted (started by an
 * earlier daemon: the case that used to be polled), the dashboards have drawn and settled, and
 * every agent is over a minute old (see AGE_MS).
 * CPU is utime+stime from /proc/<pid>/stat (all threads) over the window, as % of one core,
 * per process and in total; wakeups are context switches summed over the process's threads.
 * Prints figures; fails on nothing. Needs tmux and a build (npm run build).
 *
 *   bun scripts/bench/idle.ts [--agents 10] [--dashboards 3] [--window 60] [--many 200]
 *                             [--command 'sleep 100000'] [--settle 20] [--json]
 * (--many 0 skips scene 2; --settle: seconds from the dashboards' start to the window;
 * TROUPE_BIN=path measures another build.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { parseArgs } from "node:util";

const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dir, "../../dist/troupe");
const { values: o } = parseArgs({
  options: {
    agents: { type: "string", default: "10" },
    dashboards: { type: "string", default: "3" },
    window: { type: "string", default: "60" },
    many: { type: "string", default: "200" },
    command: { type: "string", default: "sleep 100000" },
    settle: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
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
const TICK_HZ = 100; // USER_HZ: /proc's clock ticks per second on Linux

interface Sample {
  ticks: number;
  /** Context switches per thread id (threads come and go: each is counted from its own start). */
  switches: Map<string, number>;
}

/** utime + stime of the whole process (threads included, gone ones too) and its threads' context switches. */
function sample(pid: number): Sample {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const switches = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/status`, "utf8");
      switches.set(t, Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(s)?.[1] ?? 0) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(s)?.[1] ?? 0));
    } catch {
      // a thread that ended meanwhile
    }
  }
  return { ticks: Number(f[11]) + Number(f[12]), switches };
}

function switchesBetween(a: Sample, b: Sample): number {
  let n = 0;
  for (const [t, c] of b.switches) n += c - (a.switches.get(t) ?? 0);
  return n;
}

export interface ProcessFigure {
  name: string;
  pid: number;
  /** % of one core over the window. */
  cpu: number;
  /** Context switches a second (each one a wakeup, give or take). */
  wakeups: number;
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
    const r = Bun.spawnSync([BIN, ...args], { env: this.env, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`troupe ${args.join(" ")}: ${r.stderr.toString().trim()}`);
    return r.stdout.toString();
  }

  tmux(...args: string[]): string {
    return Bun.spawnSync(["tmux", "-S", join(this.runtime, "tmux.sock"), ...args], { env: this.env }).stdout.toString();
  }

  daemonPid(): number {
    return (JSON.parse(this.troupe(["daemon", "status", "--json"])) as { pid: number }).pid;
  }

  async agentsSettled(count: number): Promise<void> {
    for (let t = 0; t < 600; t++) {
      const list = JSON.parse(this.troupe(["ls", "--json"])) as { status: string; pid: number | null }[];
      if (list.length >= count && list.every((a) => a.status !== "running" || a.pid !== null)) return;
      await Bun.sleep(100);
    }
    throw new Error("agents did not start");
  }

  close(): void {
    this.tmux("kill-server");
    for (const a of JSON.parse(this.troupe(["ls", "--json"])) as { name: string; status: string }[]) {
      if (a.status === "running") Bun.spawnSync([BIN, "stop", a.name], { env: this.env });
    }
    Bun.spawnSync([BIN, "daemon", "stop"], { env: this.env });
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.runtime, { recursive: true, force: true });
  }
}

async function measure(scene: string, procs: { name: string; pid: number }[]): Promise<SceneFigure> {
  const before = procs.map((p) => sample(p.pid));
  const t0 = performance.now();
  await Bun.sleep(WINDOW_S * 1000);
  const secs = (performance.now() - t0) / 1000;
  const processes = procs.map((p, i) => {
    const after = sample(p.pid);
    return {
      ...p,
      cpu: ((after.ticks - before[i]!.ticks) / TICK_HZ / secs) * 100,
      wakeups: switchesBetween(before[i]!, after) / secs,
    };
  });
  return { scene, windowS: Math.round(secs), processes, totalCpu: processes.reduce((s, p) => s + p.cpu, 0) };
}

async function withDashboards(): Promise<SceneFigure> {
  const ws = new Workspace();
  try {
    const done = Math.min(2, Math.floor(AGENTS / 5));
    const waiting = Math.min(2, Math.floor(AGENTS / 5));
    for (let i = 0; i < AGENTS - done - waiting; i++) ws.troupe(["spawn", "--no-worktree", "--name", `idle-${i}`, "--command", o.command!]);
    for (let i = 0; i < done; i++) ws.troupe(["spawn", "--no-worktree", "--name", `done-${i}`, "--command", "troupe signal done --result ok"]);
    for (let i = 0; i < waiting; i++) ws.troupe(["spawn", "--no-worktree", "--name", `wait-${i}`, "--command", "troupe signal questions --question 'which way?'"]);
    const spawned = Date.now();
    await ws.agentsSettled(AGENTS);
    ws.troupe(["daemon", "restart"]);
    const daemon = ws.daemonPid();
    const procs = [{ name: "daemon", pid: daemon }];
    for (let i = 0; i < DASHBOARDS; i++) {
      ws.tmux(i === 0 ? "new-session" : "new-window", ...(i === 0 ? ["-d", "-s", "idle", "-x", "160", "-y", "50"] : ["-d", "-t", "idle:"]), `exec '${BIN}'`);
    }
    for (let t = 0; t < 100; t++) {
      const pids = ws.tmux("list-panes", "-s", "-t", "idle", "-F", "#{pane_pid}").split("\n").filter(Boolean).map(Number);
      if (pids.length === DASHBOARDS) {
        pids.forEach((pid, i) => procs.push({ name: `dashboard ${i + 1}`, pid }));
        break;
      }
      await Bun.sleep(100);
    }
    if (procs.length !== DASHBOARDS + 1) throw new Error(`${procs.length - 1} of ${DASHBOARDS} dashboards started`);
    await Bun.sleep(Math.max(SETTLE_MS, spawned + AGE_MS - Date.now()));
    return await measure(`daemon + ${AGENTS} idle agents (${done} done, ${waiting} waiting) + ${DASHBOARDS} dashboards (160x50, tmux)`, procs);
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
    await Bun.sleep(SETTLE_MS);
    return await measure(`daemon with ${MANY} idle agents`, [{ name: "daemon", pid: daemon }]);
  } finally {
    ws.close();
  }
}

const scenes = [await withDashboards()];
if (MANY > 0) scenes.push(await manyAgents());
if (o.json) {
  console.log(JSON.stringify(scenes));
} else {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, bun ${Bun.version}; CPU as % of one core over ${WINDOW_S} s`);
  for (const s of scenes) {
    console.log(`${s.scene}, ${s.windowS} s:`);
    for (const p of s.processes) console.log(`  ${p.name.padEnd(12)} pid ${String(p.pid).padEnd(8)} cpu ${p.cpu.toFixed(3).padStart(6)} %   wakeups ${p.wakeups.toFixed(2)}/s`);
    console.log(`  total                       cpu ${s.totalCpu.toFixed(3).padStart(6)} %`);
  }
}
