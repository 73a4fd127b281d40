/**
 * What a remote costs (issue 21), each figure beside its local baseline in the same run:
 *  - ask → answer round trip (the typed client: ask, a held GET, answer) over the workspace's Unix
 *    socket, through `troupe proxy` started directly (the link's frames, no ssh), and through ssh
 *    to a real sshd on 127.0.0.1 (tests/support/sshd.ts) running that proxy; interleaved, so load
 *    moves them alike; median and p99;
 *  - the first list: a cold `troupe ls` process against `troupe ls --remote box` (the same local
 *    workspace plus the remote's, a new ssh link each run), the wait a person has before the list.
 * The dashboard over several sources is not built yet: its first frame is not measured here.
 * Usage: bun scripts/bench/remote.ts [roundTrips=300] [processRuns=15]   (TROUPE_BIN: another build)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import { remoteTransport } from "../../src/client/remote.ts";
import { Sshd } from "../../tests/support/sshd.ts";
import { BIN, line, load, pct, timeProcess } from "./floor.ts";
import { runtime as js } from "../../src/runtime/process.ts";
import { run, runSync } from "../lib/process.ts";

const roundTrips = Number(process.argv[2] ?? 300);
const processRuns = Number(process.argv[3] ?? 15);
const WARM = 20;

const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
const host = mkdtempSync(join(tmpdir(), "troupe-bench-host-"));
const runtime = mkdtempSync("/tmp/tb-");
const socket = join(runtime, "d.sock");
const hostSocket = join(runtime, "h.sock");
const base = { ...process.env, XDG_CONFIG_HOME: join(runtime, "config"), XDG_STATE_HOME: join(runtime, "state") } as Record<string, string>;
const env: Record<string, string> = { ...base, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket };
const hostEnv: Record<string, string> = { ...base, TROUPE_WORKSPACE: host, TROUPE_SOCKET: hostSocket };
for (const d of [dir, host]) runSync(["git", "init", "-q", d]);

const sshd = await Sshd.start({ TROUPE_SOCKET: hostSocket, XDG_STATE_HOME: hostEnv.XDG_STATE_HOME!, XDG_CONFIG_HOME: join(runtime, "host-config") });
const sshEnv = { ...env, TROUPE_SSH_COMMAND: sshd.sshCommand };
const remote = { host: "127.0.0.1", port: sshd.port, path: host, troupe: BIN };
const clients: { close?: () => void }[] = [];
try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start`);
  await run([BIN, "daemon", "start"], { env: hostEnv });
  await run([BIN, "daemon", "start"], { env });

  const local = new TroupeClient({ socket: hostSocket });
  const proxyLink = new LinkTransport(() => spawn(BIN, ["proxy", "--workspace", host], { stdio: ["pipe", "pipe", "pipe"], env: hostEnv }), { name: "proxy", address: host, timeoutMs: 20_000, installHint: "" });
  const sshLink = remoteTransport("box", remote, sshEnv);
  clients.push(proxyLink, sshLink);
  const kinds: [string, TroupeClient][] = [
    ["Unix socket (baseline)", local],
    ["troupe proxy, no ssh", new TroupeClient({ transport: proxyLink })],
    ["ssh to 127.0.0.1 + troupe proxy", new TroupeClient({ transport: sshLink })],
  ];
  const times = kinds.map(() => [] as number[]);
  for (let i = 0; i < roundTrips + WARM; i++) {
    for (const [k, [, client]] of kinds.entries()) {
      const t0 = performance.now();
      const conv = await client.ask({ question: `q${i}`, user: true });
      const waiting = client.conversation(conv.id, { wait: 5000 });
      await client.answer(conv.id, { answer: `a${i}` });
      if ((await waiting).answer !== `a${i}`) throw new Error("wrong answer");
      if (i >= WARM) times[k]!.push(performance.now() - t0);
    }
  }
  for (const [k, [label]] of kinds.entries()) {
    const ratio = k === 0 ? "" : `; /baseline ${(pct(times[k]!, 50) / pct(times[0]!, 50)).toFixed(2)}x median, ${(pct(times[k]!, 99) / pct(times[0]!, 99)).toFixed(2)}x p99`;
    console.log(line(`ask→answer round trip, ${label}`, times[k]!, ratio));
  }

  const add = runSync([BIN, "remote", "add", "box", `127.0.0.1:${sshd.port}`, "--path", host, "--troupe", BIN], { env: sshEnv });
  if (add.exitCode !== 0) throw new Error(add.stderr);
  const only: number[] = [];
  const both: number[] = [];
  for (let i = 0; i < processRuns + 2; i++) {
    const a = await timeProcess([BIN, "ls"], sshEnv);
    const b = await timeProcess([BIN, "ls", "--remote", "box"], sshEnv);
    if (a.code !== 0 || b.code !== 0) throw new Error(`${a.stderr}${b.stderr}`);
    if (i < 2) continue;
    only.push(a.wall);
    both.push(b.wall);
  }
  console.log(line("first list: troupe ls (this workspace)", only));
  console.log(line("first list: troupe ls --remote box (plus a remote over a new ssh link)", both, `; /local ${(pct(both, 50) / pct(only, 50)).toFixed(2)}x median`));
} finally {
  for (const c of clients) c.close?.();
  runSync([BIN, "daemon", "stop"], { env });
  runSync([BIN, "daemon", "stop"], { env: hostEnv });
  sshd.close();
  for (const d of [dir, host, runtime]) rmSync(d, { recursive: true, force: true });
}
