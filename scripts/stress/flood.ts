/**
 * One agent floods its output while the API is sampled. The agent (generic provider) writes
 * SIZE MB of LINE-byte lines with `yes | head -c` (as fast as the disk takes them) and ends with
 * `troupe signal done`. Every 20 ms, in two independent loops, `GET /v1/health` and
 * `GET /v1/agents` are timed; the loops run from the spawn until the agent is `done` (its output
 * all stored). Prints p50/p99/max latency of each, ingest MB/s (from the spawn until `done`),
 * the daemon's RSS (max, end), the store's size (troupe.db + WAL) and the raw files' size
 * (apparent and allocated on disk: stored output is released from them).
 * Usage: bun scripts/stress/flood.ts [sizeMB=1024] [lineBytes=100] [capMB]
 *   (TROUPE_BIN=path runs another build, e.g. an older one, for comparison)
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { start } from "../lib/process.ts";
import { unixFetch } from "../../src/runtime/serve.ts";

const BIN = resolve(import.meta.dirname, "../..", process.env.TROUPE_BIN ?? "dist/troupe");
const sizeMB = Number(process.argv[2] ?? 1024);
const lineBytes = Number(process.argv[3] ?? 100);
const capMB = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
const SAMPLE_MS = 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sizeOf = (path: string) => {
  try {
    const s = statSync(path);
    return { apparent: s.size, allocated: s.blocks * 512 };
  } catch {
    return { apparent: 0, allocated: 0 };
  }
};

const dir = mkdtempSync(join(tmpdir(), "troupe-flood-"));
const runtime = mkdtempSync("/tmp/tf-");
const socket = join(runtime, "d.sock");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
if (capMB !== undefined) {
  mkdirSync(join(dir, ".troupe"), { recursive: true });
  writeFileSync(join(dir, ".troupe", "config.json"), JSON.stringify({ output: { maxPerAgent: `${capMB}MiB` } }));
}

/** Times one request every SAMPLE_MS until `until()`; a slow answer delays the next sample, never overlaps it. */
async function sample(path: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const t0 = performance.now();
    const res = await unixFetch(socket, `http://troupe${path}`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    const took = performance.now() - t0;
    times.push(took);
    if (took < SAMPLE_MS) await sleep(SAMPLE_MS - took);
  }
  return times;
}

try {
  await start([BIN, "daemon", "start"], { env, stdout: "ignore" }).exited;
  const client = new TroupeClient({ socket });
  const pid = (await client.health()).pid;
  const bytes = sizeMB * 1024 * 1024;
  const line = "x".repeat(lineBytes - 1);
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}; ${BIN}`);
  console.log(`flood: ${sizeMB} MB of ${lineBytes}-byte lines from one agent${capMB === undefined ? "" : `, cap ${capMB} MiB`}; API sampled every ${SAMPLE_MS} ms`);
  let done = false;
  let maxRss = rssMB(pid);
  const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, rssMB(pid))), 100);
  const t0 = performance.now();
  const agent = await client.spawn({ provider: "generic", command: `yes '${line}' | head -c ${bytes}; troupe signal done`, worktree: false, env, name: "flood" });
  const out = join(dir, ".troupe", "logs", agent.name, "1.out");
  const watchAgent = (async () => {
    for (;;) {
      const a = await client.agent(agent.id);
      if (a.status === "done" || a.status === "failed") break;
      await sleep(50);
    }
    done = true;
  })();
  const [health, agents] = await Promise.all([sample("/v1/health", () => done), sample("/v1/agents", () => done), watchAgent]);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(rssTimer);
  const raw = sizeOf(out);
  const db = sizeOf(join(dir, ".troupe", "troupe.db"));
  const wal = sizeOf(join(dir, ".troupe", "troupe.db-wal"));
  const row = (name: string, xs: number[]) =>
    `${name.padEnd(12)} n=${String(xs.length).padStart(5)}  p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(row("/v1/health", health));
  console.log(row("/v1/agents", agents));
  console.log(`ingest: ${(sizeMB / seconds).toFixed(1)} MB/s (${sizeMB} MB stored ${seconds.toFixed(1)} s after the spawn)`);
  console.log(`daemon RSS: max ${maxRss.toFixed(0)} MB, end ${rssMB(pid).toFixed(0)} MB`);
  console.log(`store: troupe.db ${mb(db.apparent)} + WAL ${mb(wal.apparent)}; raw 1.out ${mb(raw.apparent)} apparent, ${mb(raw.allocated)} on disk`);
} finally {
  await start([BIN, "daemon", "stop"], { env, stdout: "ignore" }).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
