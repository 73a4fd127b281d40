/**
 * What an idle link costs (issue 21): one link over ssh to a real sshd on 127.0.0.1
 * (tests/support/sshd.ts) running `troupe proxy`, an event stream open on it (as the dashboard
 * keeps one per source) and nothing happening, for `seconds`: the CPU of the near end (this
 * client process and its ssh) and of the far end (sshd's session and the proxy), with the link's
 * heartbeat (a PING every 2 s while something is open on it) against the same link without it,
 * alternated in the same run. Each phase's figures are CPU milliseconds over the phase (10 ms ticks).
 * Usage: bun scripts/bench/link-idle.ts [seconds=60] [rounds=1]   (TROUPE_BIN: another build)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { HEARTBEAT, type HeartbeatOptions } from "../../src/client/link/heartbeat.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import { remoteCommand, sshArgv } from "../../src/client/link/ssh.ts";
import { Sshd, processesUnder } from "../../tests/support/sshd.ts";
import { BIN, load, processCpuMs } from "./floor.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { run, runSync } from "../lib/process.ts";

const seconds = Number(process.argv[2] ?? 60);
const rounds = Number(process.argv[3] ?? 1);
/** A heartbeat that never beats: the link as an older proxy gets it. */
const NONE: HeartbeatOptions = { everyMs: 2 ** 30, deadMs: 2 ** 31 };

const host = mkdtempSync(join(tmpdir(), "troupe-bench-host-"));
const runtime = mkdtempSync("/tmp/tb-");
const hostSocket = join(runtime, "h.sock");
const hostEnv: Record<string, string> = { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: join(runtime, "config"), XDG_STATE_HOME: join(runtime, "state"), TROUPE_WORKSPACE: host, TROUPE_SOCKET: hostSocket };
runSync(["git", "init", "-q", host]);

const cpuOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
const ownCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const sshd = await Sshd.start({ TROUPE_SOCKET: hostSocket, XDG_STATE_HOME: hostEnv.XDG_STATE_HOME!, XDG_CONFIG_HOME: hostEnv.XDG_CONFIG_HOME! });
const env = { ...process.env, TROUPE_SSH_COMMAND: sshd.sshCommand };
const argv = sshArgv({ host: "127.0.0.1", port: sshd.port }, remoteCommand(BIN, ["proxy", "--workspace", host]), {}, env);

async function phase(label: string, heartbeat: HeartbeatOptions): Promise<void> {
  let ssh!: ChildProcess;
  const transport = new LinkTransport(() => (ssh = spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env })), { name: "box", address: host, timeoutMs: 20_000, installHint: "", heartbeat });
  const events = await new TroupeClient({ transport }).openEvents(null);
  const reading = (async () => {
    for await (const _ of events) void _;
  })();
  reading.catch(() => undefined);
  await sleep(3_000); // the link settled: ssh's handshake and the proxy's start are not idle cost
  const far = processesUnder(sshd.pid!);
  const near = [ssh.pid!, ...processesUnder(ssh.pid!)];
  const before = { own: ownCpuMs(), near: cpuOf(near), far: cpuOf(far) };
  await sleep(seconds * 1000);
  const own = ownCpuMs() - before.own;
  const nearSsh = cpuOf(near) - before.near;
  const farEnd = cpuOf(far) - before.far;
  console.log(`${label}, ${seconds} s idle: near end ${(own + nearSsh).toFixed(0)} ms CPU (client ${own.toFixed(0)} ms + ssh ${nearSsh.toFixed(0)} ms), far end ${farEnd.toFixed(0)} ms CPU (sshd session + proxy, ${far.length} processes) · ${load()}`);
  transport.close();
  await reading.catch(() => undefined);
}

try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start`);
  await run([BIN, "daemon", "start"], { env: hostEnv });
  for (let r = 0; r < rounds; r++) {
    await phase(`link with its heartbeat (a PING every ${HEARTBEAT.everyMs / 1000} s while the stream is open)`, HEARTBEAT);
    await phase("link without a heartbeat (ssh keep-alives only, as with an older proxy)", NONE);
  }
} finally {
  runSync([BIN, "daemon", "stop"], { env: hostEnv });
  sshd.close();
  for (const d of [host, runtime]) rmSync(d, { recursive: true, force: true });
}
