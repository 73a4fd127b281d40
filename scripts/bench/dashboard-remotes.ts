/**
 * A dashboard's idle CPU with two remote sources (issue 21), against the same dashboard with this
 * workspace only, alternated in one run: the compiled dashboard in a 160x50 tmux window, nothing
 * happening for `seconds`; CPU (utime+stime from /proc, 10 ms ticks) of the dashboard with its ssh
 * processes (the near end) and of sshd's sessions with their proxies (the far end). Both remotes
 * are links over ssh to a real sshd on 127.0.0.1 (tests/support/sshd.ts) serving one host workspace.
 * Usage: bun scripts/bench/dashboard-remotes.ts [seconds=60] [rounds=2]   (TROUPE_BIN: another build)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { Sshd, processesUnder } from "../../tests/support/sshd.ts";
import { BIN, load, processCpuMs } from "./floor.ts";
import { runSync } from "../lib/process.ts";

const seconds = Number(process.argv[2] ?? 60);
const rounds = Number(process.argv[3] ?? 2);
const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
const host = mkdtempSync(join(tmpdir(), "troupe-bench-host-"));
const runtime = mkdtempSync("/tmp/tb-");
const base = { ...(process.env as Record<string, string>), NO_COLOR: "1" };
const env: Record<string, string> = { ...base, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: join(runtime, "d.sock"), XDG_CONFIG_HOME: join(runtime, "config"), XDG_STATE_HOME: join(runtime, "state") };
const hostEnv: Record<string, string> = { ...base, TROUPE_WORKSPACE: host, TROUPE_SOCKET: join(runtime, "h.sock"), XDG_CONFIG_HOME: join(runtime, "host-config"), XDG_STATE_HOME: join(runtime, "host-state") };
for (const d of [dir, host]) runSync(["git", "init", "-q", d]);
const tmux = ["tmux", "-L", `tb-${process.pid}`];

const sshd = await Sshd.start({ TROUPE_SOCKET: hostEnv.TROUPE_SOCKET!, XDG_STATE_HOME: hostEnv.XDG_STATE_HOME!, XDG_CONFIG_HOME: hostEnv.XDG_CONFIG_HOME! });
const sshEnv = { ...env, TROUPE_SSH_COMMAND: sshd.sshCommand };

/** CPU of each process now, by pid; one gone meanwhile is left out. */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, processCpuMs(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU used between two readings by the processes present in both. */
function spent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) if (before.has(pid)) ms += t - before.get(pid)!;
  return ms;
}

async function phase(label: string, args: string[]): Promise<void> {
  runSync([...tmux, "new-session", "-d", "-x", "160", "-y", "50", "-s", "d", process.env.SHOW ? `${BIN} ${args.join(" ")}; sleep 20` : `exec ${BIN} ${args.join(" ")}`], { env: sshEnv });
  await Bun.sleep(8_000); // drawn, links open, settled
  const pid = Number(runSync([...tmux, "display", "-p", "-t", "d", "#{pane_pid}"]).stdout.trim());
  if (process.env.SHOW) console.log(runSync([...tmux, "capture-pane", "-p", "-t", "d"]).stdout);
  const near = [pid, ...processesUnder(pid)];
  const far = processesUnder(sshd.pid!);
  const before = { near: cpuOf(near), far: cpuOf(far) };
  await Bun.sleep(seconds * 1000);
  const nearMs = spent(before.near, cpuOf(near));
  const farMs = spent(before.far, cpuOf(far));
  const pct = (ms: number) => ((ms / (seconds * 1000)) * 100).toFixed(3);
  console.log(`${label}, ${seconds} s idle: dashboard + its ssh ${nearMs} ms (${pct(nearMs)} % of a core, ${near.length} processes), far end ${farMs} ms (${pct(farMs)} %, ${far.length} processes) · ${load()}`);
  runSync([...tmux, "kill-server"]);
  await Bun.sleep(1_000);
}

try {
  runSync([BIN, "daemon", "start"], { env: hostEnv });
  runSync([BIN, "daemon", "start"], { env });
  for (const name of ["a", "b"]) {
    const add = runSync([BIN, "remote", "add", name, `127.0.0.1:${sshd.port}`, "--path", host, "--troupe", BIN], { env: sshEnv });
    if (add.exitCode !== 0) throw new Error(add.stderr);
  }
  for (let r = 0; r < rounds; r++) {
    await phase("dashboard, this workspace only", []);
    await phase("dashboard, this workspace + two remotes over ssh", ["--remote", "a", "--remote", "b"]);
  }
} finally {
  runSync([...tmux, "kill-server"]);
  runSync([BIN, "daemon", "stop"], { env });
  runSync([BIN, "daemon", "stop"], { env: hostEnv });
  sshd.close();
  for (const d of [dir, host, runtime]) rmSync(d, { recursive: true, force: true });
}
