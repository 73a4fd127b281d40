/**
 * What a remote costs (issue 21), each figure beside its local baseline in the same run:
 *  - ask → answer round trip (the typed client: ask, a held GET, answer) over the workspace's Unix
 *    socket, through `troupe proxy` started directly (the link's frames, no ssh), and through ssh
 *    to a real sshd on 127.0.0.1 (tests/support/sshd.ts) running that proxy; interleaved, so load
 *    moves them alike; median and p99;
 *  - the first list: a cold `troupe ls` process against `troupe ls --remote box` (the same local
 *    workspace plus the remote's, a new ssh link each run), the wait a person has before the list.
 * The dashboard over remotes: remote-dashboard.ts.
 * Usage: bun scripts/bench/remote.ts [roundTrips=300] [processRuns=15]   (TROUPE_BIN: another build)
 */
import { spawn } from "node:child_process";
import { TroupeClient } from "../../src/client/client.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import { remoteTransport } from "../../src/client/remote.ts";
import { remoteScene } from "./remote-scene.ts";
import { BIN, line, load, pct, timeProcess } from "./floor.ts";
import { runtime as js } from "../../src/runtime/process.ts";
import { run, runSync } from "../lib/process.ts";

const roundTrips = Number(process.argv[2] ?? 300);
const processRuns = Number(process.argv[3] ?? 15);
const WARM = 20;

const scene = await remoteScene();
const { host, hostSocket, env, hostEnv, sshd } = scene;
const remote = { host: "127.0.0.1", port: sshd.port, path: host, troupe: BIN };
const clients: { close?: () => void }[] = [];
try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start`);
  await run([BIN, "daemon", "start"], { env: hostEnv });
  await run([BIN, "daemon", "start"], { env });

  const local = new TroupeClient({ socket: hostSocket });
  const proxyLink = new LinkTransport(() => spawn(BIN, ["proxy", "--workspace", host], { stdio: ["pipe", "pipe", "pipe"], env: hostEnv }), { name: "proxy", address: host, timeoutMs: 20_000, installHint: "" });
  const sshLink = remoteTransport("box", remote, env);
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

  const add = runSync([BIN, "remote", "add", "box", `127.0.0.1:${sshd.port}`, "--path", host, "--troupe", BIN], { env });
  if (add.exitCode !== 0) throw new Error(add.stderr);
  const only: number[] = [];
  const both: number[] = [];
  for (let i = 0; i < processRuns + 2; i++) {
    const a = await timeProcess([BIN, "ls"], env);
    const b = await timeProcess([BIN, "ls", "--remote", "box"], env);
    if (a.code !== 0 || b.code !== 0) throw new Error(`${a.stderr}${b.stderr}`);
    if (i < 2) continue;
    only.push(a.wall);
    both.push(b.wall);
  }
  console.log(line("first list: troupe ls (this workspace)", only));
  console.log(line("first list: troupe ls --remote box (plus a remote over a new ssh link)", both, `; /local ${(pct(both, 50) / pct(only, 50)).toFixed(2)}x median`));
} finally {
  for (const c of clients) c.close?.();
  scene.close();
}
