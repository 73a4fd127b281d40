/**
 * Output ingest. For each N, N agents (the generic provider, so the agent itself costs nothing):
 *  1. flood: each `cat`s a prepared JSONL file as fast as the pipe goes. Prints total store
 *     ingest throughput (MB/s, from the first spawn until every agent's output is stored and it
 *     has ended), the daemon's CPU time per 100 MB, and its RSS (start, max, end). Output events
 *     are still emitted, but this subscriber asks for lifecycle events only (?output=none), so
 *     it does not measure itself parsing 100 MB;
 *  2. paced: each `cat`s a FIFO this script writes one stamped line to every 20 ms. Prints the
 *     output-event latency from the write to a subscriber of the event stream (p50/p99).
 * Writers are `cat`, not interpreters, so what is measured is the daemon, not 50 runtimes starting.
 * Usage: bun scripts/bench/ingest.ts [totalMB=100] [N...=1 10 50]
 *   (TROUPE_BIN=path runs another build, e.g. an older one, for comparison)
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { runtime, sleep } from "../../src/runtime/process.ts";
import { runSync, start } from "../lib/process.ts";

const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dirname, "../../dist/troupe");
const totalMB = Number(process.argv[2] ?? 100);
const counts = process.argv.slice(3).map(Number);
const Ns = counts.length ? counts : [1, 10, 50];
const PACE_MS = 20;
const PACED_LINES = 100;
const PAD = "x".repeat(180);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const proc = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  return { cpu: (Number(f[11]) + Number(f[12])) / 100, rss };
};
const now = () => performance.timeOrigin + performance.now();

/** Spawns n agents running `command(i)`, calls `drive` once they are spawned, and waits until all have ended. */
async function phase(client: TroupeClient, env: Record<string, string>, n: number, command: (i: number) => string, drive: () => Promise<void>, withOutput: boolean) {
  const abort = new AbortController();
  // the flood only needs to know when agents end: a subscriber parsing 100 MB would measure itself
  const events = await client.openEvents(null, abort.signal, withOutput ? {} : { output: [] });
  const latencies: number[] = [];
  const ids = new Set<string>();
  const ended = new Set<string>();
  let lastAt = 0;
  let resyncs = 0;
  let spawned = false;
  const allEnded = () => spawned && [...ids].every((id) => ended.has(id));
  const seen = (async () => {
    for await (const { event } of events) {
      if (event.type === "agent:output") {
        const d = event.chunk.data;
        const at = d.lastIndexOf('{"t":');
        if (at !== -1) latencies.push(now() - Number(d.slice(at + 5, d.indexOf(",", at))));
      } else if (event.type === "agent:updated" && ["done", "failed"].includes(event.agent.status)) {
        ended.add(event.agent.id);
        lastAt = performance.now();
      } else if (event.type === "resync") {
        // this subscriber fell behind and events were dropped: read the state instead
        resyncs++;
        for (const a of await client.listAgents()) if (["done", "failed"].includes(a.status)) ended.add(a.id);
        lastAt = performance.now();
      }
      if (allEnded()) break;
    }
  })();
  const t0 = performance.now();
  const base = (await client.listAgents()).length;
  for (let i = 0; i < n; i++) {
    const a = await client.spawn({ provider: "generic", command: `${command(i)} && troupe signal done`, worktree: false, env, name: `w${base + i}` });
    ids.add(a.id);
  }
  spawned = true;
  const spawnedAt = performance.now();
  await drive();
  await seen;
  abort.abort();
  return { seconds: (lastAt - t0) / 1000, spawnMs: (spawnedAt - t0) / n, latencies, resyncs, ids };
}

console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; flood ${totalMB} MB of JSONL per N, then ${PACED_LINES} lines every ${PACE_MS} ms per agent`);
for (const n of Ns) {
  const dir = mkdtempSync(join(tmpdir(), "troupe-ingest-"));
  const runtime = mkdtempSync("/tmp/ti-");
  const socket = join(runtime, "d.sock");
  const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
  try {
    await start([BIN, "daemon", "start"], { env, stdout: "ignore" }).exited;
    const client = new TroupeClient({ socket });
    const pid = (await client.health()).pid;

    const perAgent = Math.floor((totalMB * 1024 * 1024) / n);
    const lines: string[] = [];
    for (let size = 0, i = 0; size < perAgent; i++) {
      const l = `{"t":0,"i":${i},"pad":"${PAD}"}\n`;
      lines.push(l);
      size += l.length;
    }
    const flood = join(dir, "flood.jsonl");
    writeFileSync(flood, lines.join(""));
    const before = proc(pid);
    const rss = [before.rss];
    const sampler = setInterval(() => rss.push(proc(pid).rss), 100);
    const f = await phase(client, env, n, () => `cat '${flood}'`, async () => {}, false);
    clearInterval(sampler);
    const after = proc(pid);
    rss.push(after.rss);
    let bytes = 0;
    for (const id of f.ids) bytes += statSync(join(dir, ".troupe", "logs", (await client.agent(id)).name, "1.out")).size;
    const mb = bytes / 1024 / 1024;

    const fifos = Array.from({ length: n }, (_, i) => join(dir, `pace-${i}.fifo`));
    for (const p of fifos) runSync(["mkfifo", p]);
    const p = await phase(client, env, n, (i) => `cat '${fifos[i]}'`, async () => {
      const fds = await Promise.all(fifos.map((path) => open(path, "w")));
      for (let k = 0; k < PACED_LINES; k++) {
        for (const fd of fds) writeSync(fd.fd, `{"t":${now()},"i":${k},"pad":"${PAD}"}\n`);
        await sleep(PACE_MS);
      }
      await Promise.all(fds.map((fd) => fd.close()));
    }, true);
    console.log(
      `N=${String(n).padStart(2)}: ingest ${(mb / f.seconds).toFixed(1)} MB/s (${mb.toFixed(0)} MB stored in ${f.seconds.toFixed(2)} s from the first spawn, ` +
        `spawns ${f.spawnMs.toFixed(0)} ms each meanwhile${f.resyncs ? `; subscriber resynced ${f.resyncs}x` : ""}), ` +
        `daemon CPU ${(((after.cpu - before.cpu) / mb) * 100).toFixed(2)} s per 100 MB; ` +
        `latency write→subscriber p50 ${pct(p.latencies, 50).toFixed(1)} ms, p99 ${pct(p.latencies, 99).toFixed(1)} ms (${p.latencies.length} events); ` +
        `daemon RSS start ${rss[0]!.toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB, end ${rss[rss.length - 1]!.toFixed(0)} MB`,
    );
  } finally {
    await start([BIN, "daemon", "stop"], { env, stdout: "ignore" }).exited;
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
  }
}
