/**
 * Many clients start at the same instant against a workspace with no daemon. Each client is a
 * shell blocked reading a FIFO; once every one of them is blocked there, one write releases
 * them all, and each execs its troupe command: `ls --json`, `spawn --command true`, `ask --user`
 * with a 500 ms timeout (which must end exit 3, expired), or `daemon start` (health: it prints the
 * pid that serves), in turn. Afterwards the daemons of this workspace are counted by the flock
 * holder of `.troupe/daemon.lock`, by `troupe daemon run` processes for its socket (pgrep), and
 * by "serving" lines in the daemon log; exactly one of each and no failed client is a pass.
 * Usage: bun scripts/stress/start-race.ts [--clients 10,30] [--runs 3]
 */
import { closeSync, openSync, readFileSync, readlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BIN, daemonProcesses, flags, lockHolders, numberFlag, tempWorkspace, type RunResult, type StressWorkspace } from "./workspace.ts";
import { runtime, sleep } from "../../src/runtime/process.ts";
import { runSync, start } from "../lib/process.ts";

const ASK_TIMEOUT_MS = 500;

interface Kind {
  args: (i: number) => string[];
  ok: (r: RunResult) => boolean;
}

const KINDS: Record<string, Kind> = {
  ls: { args: () => ["ls", "--json"], ok: (r) => r.code === 0 && Array.isArray(JSON.parse(r.stdout)) },
  spawn: { args: (i) => ["spawn", "--no-worktree", "--name", `race-${i}`, "--command", "true", "--json"], ok: (r) => r.code === 0 && typeof JSON.parse(r.stdout).id === "string" },
  ask: { args: (i) => ["ask", `race question ${i}`, "--user", "--timeout", String(ASK_TIMEOUT_MS)], ok: (r) => r.code === 3 && r.stderr.includes(`within ${ASK_TIMEOUT_MS} ms`) },
  health: { args: () => ["daemon", "start"], ok: (r) => r.code === 0 && /^daemon \d+ serves /.test(r.stdout) },
};

export interface RaceResult {
  clients: number;
  /** Per kind: clients that did not end as that command should ("kind: exit code, stderr"). */
  failures: string[];
  lockHolders: number;
  daemonProcesses: number;
  servingLines: number;
  /** From the release until the last client exited. */
  seconds: number;
}

function isParked(pid: number, fifo: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/fd/0`) === fifo && readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("S") === true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(20);
  }
}

export async function runStartRace(ws: StressWorkspace, clients: number): Promise<RaceResult> {
  const fifo = join(ws.dir, "..", `${ws.dir.split("/").pop()}.go`);
  if (runSync(["mkfifo", fifo]).exitCode !== 0) throw new Error(`mkfifo ${fifo} failed`);
  // holding it open for reading and writing: the shells' opens never block, and what is written waits for them
  const gate = openSync(fifo, "r+");
  try {
    const names = Object.keys(KINDS);
    const procs = Array.from({ length: clients }, (_, i) => {
      const kind = names[i % names.length]!;
      const p = start(["sh", "-c", 'read _ < "$0"; exec "$@"', fifo, BIN, ...KINDS[kind]!.args(i)], { cwd: ws.dir, env: ws.env, stdout: "pipe", stderr: "pipe" });
      const result = p.output().then(({ stdout, stderr, exitCode: code }) => ({ stdout, stderr, code }));
      return { kind, pid: p.pid, result };
    });
    await until("every client parked at the gate", () => procs.every((p) => isParked(p.pid, fifo)), 10_000);
    const released = performance.now();
    writeSync(gate, "\n".repeat(clients)); // one line each: all go at once
    const failures: string[] = [];
    for (const p of procs) {
      const r = await p.result;
      let ok = false;
      try {
        ok = KINDS[p.kind]!.ok(r);
      } catch {
        // unparsable output is a failure too
      }
      if (!ok) failures.push(`${p.kind}: exit ${r.code}, ${r.stderr.trim() || r.stdout.trim()}`);
    }
    const seconds = (performance.now() - released) / 1000;
    // a daemon that lost the race exits on its own, maybe after its client returned
    await until("the losing daemons to exit", () => daemonProcesses(ws).length <= 1, 10_000).catch(() => {});
    const log = readFileSync(join(ws.dir, ".troupe", "daemon.log"), "utf8");
    return {
      clients,
      failures,
      lockHolders: lockHolders(ws).length,
      daemonProcesses: daemonProcesses(ws).length,
      servingLines: log.split("\n").filter((l) => l.includes(" serving ")).length,
      seconds,
    };
  } finally {
    closeSync(gate);
    runSync(["rm", "-f", fifo]);
  }
}

export function formatRace(r: RaceResult): string {
  const f = r.failures.length ? ` (${r.failures.slice(0, 3).join("; ")})` : "";
  return `${String(r.clients).padStart(3)} clients: daemons by lock ${r.lockHolders}, by pgrep ${r.daemonProcesses}, serving in log ${r.servingLines}; client failures ${r.failures.length}${f}; all exited ${r.seconds.toFixed(2)} s after the release`;
}

if (import.meta.main) {
  const f = flags(process.argv.slice(2));
  const counts = (f.get("clients") ?? "10,30").split(",").map(Number);
  const runs = numberFlag(f, "runs", 3);
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; ${BIN}`);
  let failed = false;
  for (let run = 1; run <= runs; run++) {
    for (const c of counts) {
      const ws = tempWorkspace("race");
      try {
        const r = await runStartRace(ws, c);
        console.log(`run ${run}: ${formatRace(r)}`);
        failed ||= r.failures.length > 0 || r.lockHolders !== 1 || r.daemonProcesses !== 1 || r.servingLines !== 1;
      } finally {
        await ws.remove();
      }
    }
  }
  process.exit(failed ? 1 : 0);
}
