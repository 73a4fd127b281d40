/**
 * Output ingest. For each N: N fake agents
 *  1. flood: write JSONL as fast as they can. Prints total store ingest throughput (MB/s, from the
 *     first spawn to the last chunk a subscriber saw) and the daemon's RSS (start, max, end);
 *  2. paced: write one stamped line every 20 ms. Prints output-event latency from the write to a
 *     subscriber (p50/p99): the delay a person watching sees, not queueing behind a flood.
 * Usage: bun scripts/bench/ingest.ts [totalMB=100] [N...=1 10 50]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";

const BIN = resolve(import.meta.dir, "../../dist/troupe");
const WRITER = resolve(import.meta.dir, "ingest-writer.ts");
const totalMB = Number(process.argv[2] ?? 100);
const counts = process.argv.slice(3).map(Number);
const Ns = counts.length ? counts : [1, 10, 50];
const PACE_MS = 20;
const PACED_LINES = 100;
const WARMUP_MS = 300;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const stamp = (data: string) => {
  const at = data.lastIndexOf('{"t":');
  return at === -1 ? null : Number(data.slice(at + 5, data.indexOf(",", at)));
};

/** Spawns n writers and follows events until every one has ended (its output is then all stored). */
async function phase(client: TroupeClient, env: Record<string, string>, n: number, args: string) {
  const abort = new AbortController();
  const events = await client.openEvents(null, abort.signal);
  const latencies: { at: number; ms: number }[] = [];
  const ids = new Set<string>();
  const ended = new Set<string>();
  let lastAt = 0;
  let resyncs = 0;
  let spawned = false;
  const seen = (async () => {
    for await (const { event } of events) {
      if (event.type === "resync") {
        // the subscriber fell behind and events were dropped: read the state instead
        resyncs++;
        for (const a of await client.listAgents()) if (["done", "failed"].includes(a.status) && !ended.has(a.id)) {
          ended.add(a.id);
          lastAt = performance.now();
        }
      }
      if (event.type === "agent:output") {
        const t = stamp(event.chunk.data);
        if (t !== null) latencies.push({ at: t, ms: performance.timeOrigin + performance.now() - t });
      }
      if (event.type === "agent:updated" && ["done", "failed"].includes(event.agent.status)) {
        ended.add(event.agent.id);
        lastAt = performance.now();
      }
      if (spawned && [...ids].every((id) => ended.has(id))) break;
    }
  })();
  const t0 = performance.now();
  const base = (await client.listAgents()).length;
  for (let i = 0; i < n; i++) {
    const a = await client.spawn({ provider: "generic", command: `'${process.execPath}' '${WRITER}' ${args} && troupe signal done`, worktree: false, env, name: `w${base + i}` });
    ids.add(a.id);
  }
  spawned = true;
  // lines written while N bun writers are still starting on this machine measure start-up contention
  const spawnedAt = performance.timeOrigin + performance.now();
  await seen;
  abort.abort();
  let bytes = 0;
  for (const id of ids) {
    const a = await client.agent(id);
    bytes += statSync(join(env.TROUPE_WORKSPACE!, ".troupe", "logs", a.name, "1.out")).size;
  }
  return { bytes, seconds: (lastAt - t0) / 1000, latencies: latencies.filter((l) => l.at > spawnedAt + WARMUP_MS).map((l) => l.ms), resyncs };
}

console.log(`machine: ${navigator.hardwareConcurrency} cores, bun ${Bun.version}; flood ${totalMB} MB of JSONL per N, then ${PACED_LINES} lines every ${PACE_MS} ms per agent`);
for (const n of Ns) {
  const dir = mkdtempSync(join(tmpdir(), "troupe-ingest-"));
  const runtime = mkdtempSync("/tmp/ti-");
  const socket = join(runtime, "d.sock");
  const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
  try {
    await Bun.spawn([BIN, "daemon", "start"], { env, stdout: "ignore" }).exited;
    const client = new TroupeClient({ socket });
    const pid = (await client.health()).pid;
    const rss: number[] = [rssMB(pid)];
    const sampler = setInterval(() => rss.push(rssMB(pid)), 100);
    const perAgent = Math.floor((totalMB * 1024 * 1024) / n);
    const flood = await phase(client, env, n, `flood ${perAgent}`);
    clearInterval(sampler);
    rss.push(rssMB(pid));
    const paced = await phase(client, env, n, `paced ${PACE_MS} ${PACED_LINES}`);
    const mb = flood.bytes / 1024 / 1024;
    console.log(
      `N=${String(n).padStart(2)}: ingest ${(mb / flood.seconds).toFixed(1)} MB/s (${mb.toFixed(0)} MB in ${flood.seconds.toFixed(2)} s${flood.resyncs ? `, subscriber resynced ${flood.resyncs}x` : ""}); ` +
        `latency write→subscriber p50 ${pct(paced.latencies, 50).toFixed(1)} ms, p99 ${pct(paced.latencies, 99).toFixed(1)} ms (${paced.latencies.length} chunks); ` +
        `daemon RSS start ${rss[0]!.toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB, end ${rss[rss.length - 1]!.toFixed(0)} MB`,
    );
  } finally {
    await Bun.spawn([BIN, "daemon", "stop"], { env, stdout: "ignore" }).exited;
    rmSync(dir, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
  }
}
