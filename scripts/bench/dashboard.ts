/**
 * Dashboard benchmark: 100 agents, one streaming 100,000 lines.
 * Prints keypress→frame latency (select next agent; p50/p99), frames per second while streaming,
 * and the dashboard's memory (RSS) at start and as output grows. Never fails on time.
 *
 *   npm run build && bun scripts/bench/dashboard.ts   # against a real daemon (dist/troupe) on a temp workspace, shell-command agents
 *   bun scripts/bench/dashboard.ts --fake     # against an in-process fake daemon (no processes, no socket)
 *
 * Knobs: BENCH_RATE (streamer lines/s, default 5000; 0 = as fast as the shell can), BENCH_LINES,
 * BENCH_MAX_FPS (Ink's cap, default 60 as in the dashboard), BENCH_DEBUG=1 (JSC heap details).
 *
 * The dashboard runs in this process, rendering with the production options into a fake
 * 160x50 terminal; the keys go in through its stdin as a terminal would send them.
 */
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { render } from "ink";
import { createElement } from "react";
import { App } from "../../src/ui/shell/app.tsx";
import { DaemonMirror } from "../../src/ui/mirror/daemon-mirror.ts";
import { ThemeContext } from "../../src/ui/shared/theme.ts";
import type { DashboardClient, DashboardDeps } from "../../src/ui/deps.ts";
import type { LineParser } from "../../src/output/lines.ts";
import { visibleAgents } from "../../src/ui/mirror/entities-state.ts";
import { gc, sleep } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";

const AGENTS = 100;
const LINES = Number(process.env.BENCH_LINES ?? 100_000);
/** Lines a second the streamer writes (0: as fast as it can, a burst). */
const RATE = Number(process.env.BENCH_RATE ?? 5_000);
const LOAD_WAIT_MS = Number(process.env.BENCH_LOAD_WAIT_MS ?? 120_000);
const MAX_FPS = Number(process.env.BENCH_MAX_FPS ?? 60);
const COLS = 160;
const ROWS = 50;
const fake = process.argv.includes("--fake");

// --- a terminal that records what the dashboard draws -----------------------------------------
class Tty extends Writable {
  isTTY = true;
  columns = COLS;
  rows = ROWS;
  writes = 0;
  /** Text written since the last `mark()`, escapes stripped. */
  since = "";
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.writes++;
    this.since += String(chunk).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
    cb();
  }
  mark(): void {
    this.since = "";
  }
}

class Keyboard extends EventEmitter {
  isTTY = true;
  isRaw = false;
  private data: string | null = null;
  setRawMode(v: boolean) {
    this.isRaw = v;
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  press(s: string) {
    this.data = s;
    this.emit("readable");
  }
}

const rawParser: LineParser = (line) => [{ kind: "raw", line }];
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
/** RSS, and the JS heap in use (what the dashboard holds, without the allocator's spare pages). */
const memory = () => {
  gc();
  const m = process.memoryUsage();
  if (process.env.BENCH_DEBUG) console.error(`debug: heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}`);
  return { rss: m.rss, heap: m.heapUsed };
};
const fmtMem = (m: { rss: number; heap: number }) => `RSS ${mb(m.rss)}, JS heap ${mb(m.heap)}`;
const waitUntil = async (cond: () => boolean, ms: number) => {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) return false;
    await sleep(1);
  }
  return true;
};

// --- the daemon: real (temp workspace, shell agents) or fake ----------------------------------
interface Target {
  client: DashboardClient;
  parserFor: (p: string) => LineParser;
  /** Starts the streaming agent's output; resolves when all lines were produced. */
  stream(): Promise<void>;
  close(): Promise<void>;
}

async function fakeTarget(): Promise<Target> {
  const { FakeClient, makeAgent } = await import("../../tests/ui/helpers/fake-client.ts");
  const now = Date.now();
  const agents = Array.from({ length: AGENTS }, (_, i) =>
    makeAgent({ name: `agent-${String(i).padStart(3, "0")}`, status: i % 7 === 3 ? "done" : "running", createdAt: now - i * 1000, prompt: `task number ${i}` }),
  );
  const streamer = agents[0]!;
  const client = new FakeClient(agents);
  return {
    client,
    parserFor: () => rawParser,
    async stream() {
      // The daemon stores whole lines per chunk as it reads them: 100 lines a chunk, one event each.
      const per = 100;
      const start = performance.now();
      for (let i = 0; i < LINES; i += per) {
        let data = "";
        for (let j = i; j < Math.min(LINES, i + per); j++) data += `line ${j} of the streaming agent: some text to make it look like output\n`;
        client.write(streamer.id, data);
        if ((i / per) % 10 === 0) client.update(streamer.id, { lastActivityAt: Date.now() });
        const due = RATE > 0 ? start + ((i + per) / RATE) * 1000 : 0;
        await sleep(Math.max(1, due - performance.now()));
      }
    },
    async close() {},
  };
}

async function realTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
  const sockDir = mkdtempSync("/tmp/tb-");
  process.env.TROUPE_SOCKET = join(sockDir, "d.sock");
  const git = (...args: string[]) => runSync(["git", ...args], { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" } });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "init");
  const { resolveWorkspace } = await import("../../src/workspace.ts");
  const { ensureDaemon } = await import("../../src/client/connect.ts");
  const { parserFor } = await import("../../src/output/render.ts");
  const ws = resolveWorkspace({ workspace: dir });
  // The daemon is the compiled binary (build it first): started from this script, it would run the script.
  const bin = join(import.meta.dirname, "../../dist/troupe");
  const started = runSync([bin, "daemon", "start", "--workspace", dir], { env: process.env });
  if (started.exitCode !== 0) throw new Error(`could not start the daemon (${bin}; npm run build first?): ${started.stderr.toString()}`);
  const client = await ensureDaemon(ws);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const gate = join(dir, "go");
  // The streamer waits for a file so that the dashboard is up before its output starts.
  // 500 lines, then a pause that holds the rate; then it stays running, as a live agent does.
  const batch = 500;
  const pause = RATE > 0 ? (batch / RATE).toFixed(3) : "0";
  const streamCmd = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do j=0; while [ $j -lt ${batch} ]; do echo "line $((i+j)) of the streaming agent: some text to make it look like output"; j=$((j+1)); done; i=$((i+${batch})); sleep ${pause}; done; sleep 600`;
  for (let i = AGENTS - 1; i >= 1; i--) {
    await client.spawn({ provider: "generic", command: "sleep 600", name: `agent-${String(i).padStart(3, "0")}`, worktree: false, env });
  }
  await client.spawn({ provider: "generic", command: streamCmd, name: "agent-000", worktree: false, env });
  return {
    client,
    parserFor,
    async stream() {
      writeFileSync(gate, "");
      // Done when the dashboard has been sent every line.
      while (streamedLines() < LINES) await sleep(50);
    },
    async close() {
      for (const a of await client.listAgents()) if (a.status === "running" || a.status === "starting") await client.stop(a.id).catch(() => undefined);
      await client.stopDaemon().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      rmSync(sockDir, { recursive: true, force: true });
    },
  };
}

// --- the run ----------------------------------------------------------------------------------
const target = fake ? await fakeTarget() : await realTarget();
const feed = new DaemonMirror(target.client, target.parserFor);
const deps: DashboardDeps = {
  client: target.client,
  workspace: "~/bench",
  parserFor: target.parserFor,
  listProviders: async () => [],
  loadDiff: async () => [],
  runs: {
    detail: () => Promise.reject(new Error("not in the benchmark")),
    dispatch: () => Promise.reject(new Error("not in the benchmark")),
    stopDispatch: () => Promise.reject(new Error("not in the benchmark")),
  },
  editText: async (text) => text,
  attach: () => Promise.reject(new Error("not in the benchmark")),
  env: {},
};
const stdout = new Tty();
const stdin = new Keyboard();
let frames = 0;
let firstFrameAt = 0;
const renderTimes: number[] = [];
feed.start();
const t0 = performance.now();
const ink = render(createElement(ThemeContext.Provider, { value: { color: true, ascii: false } }, createElement(App, { deps, mirror: feed })), {
  stdout: stdout as unknown as NodeJS.WriteStream,
  stdin: stdin as unknown as NodeJS.ReadStream,
  alternateScreen: true,
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: MAX_FPS,
  incrementalRendering: true,
  interactive: true,
  onRender: (m) => {
    frames++;
    if (!firstFrameAt && Object.keys(feed.getView().entities.agents).length >= AGENTS) firstFrameAt = performance.now();
    renderTimes.push(m.renderTime);
  },
});
await waitUntil(() => firstFrameAt > 0, 60_000);
const firstFrameMs = firstFrameAt - t0;
const rssStart = memory();

/** The agent a press of j (+1) or k (-1) selects now, by the list as the dashboard sorts it. */
function nextName(delta: number): string {
  const names = visibleAgents(feed.getView().entities, "").map((a) => a.name);
  const cur = names.indexOf(selectedName);
  return names[Math.max(0, Math.min(names.length - 1, cur + delta))]!;
}

/** Presses a key and waits for the frame that shows `name` selected; returns ms or NaN. */
async function press(key: string, name: string): Promise<number> {
  selectedName = name;
  stdout.mark();
  const start = performance.now();
  stdin.press(key);
  const row = new RegExp(`› \\S [ !] ${name}`);
  const ok = await waitUntil(() => row.test(stdout.since), 2000);
  return ok ? performance.now() - start : NaN;
}

// Keypresses while the streamer is streaming: down the list and back up, a person's pace.
const latencies: number[] = [];
let selectedName = visibleAgents(feed.getView().entities, "")[0]!.name;
const rss: { lines: number; mem: { rss: number; heap: number } }[] = [];
// In list order (the streamer, newest, first), as the dashboard sorts them.
const sel = visibleAgents(feed.getView().entities, "").map((a) => a.name);
const streamerOf = () => Object.values(feed.getView().entities.agents).find((a) => a.name === "agent-000")!;
/** Lines of the streamer the daemon has sent so far (counted from its chunks, whether on screen or not). */
let sent = 0;
const streamedLines = () => sent;
const origOnChunk = feed.output.onChunk.bind(feed.output);
feed.output.onChunk = (chunk) => {
  if (chunk.agentId === streamerOf().id) sent += chunk.data.split("\n").length - 1;
  origOnChunk(chunk);
};
const streaming = target.stream();
let done = false;
void streaming.then(() => (done = true));
const framesAtStart = frames;
const streamStart = performance.now();
let pos = 0;
let dir = 1;
let lastSample = 0;
while (!done) {
  const next = pos + dir;
  if (next < 0 || next >= Math.min(sel.length, 40)) dir = -dir;
  pos += dir;
  const ms = await press(dir > 0 ? "j" : "k", nextName(dir));
  if (!Number.isNaN(ms)) latencies.push(ms);
  await sleep(50);
  const n = streamedLines();
  if (n - lastSample >= LINES / 4) {
    lastSample = n;
    rss.push({ lines: n, mem: memory() });
  }
}
const streamSecs = (performance.now() - streamStart) / 1000;
const framesDuring = frames - framesAtStart;
// Back to the streamer, whose history now loads from the store (the whole 100,000 lines).
while (pos > 1) {
  pos--;
  await press("k", nextName(-1));
}
const streamerId = streamerOf().id;
const loadStart = performance.now();
pos = 0;
await press("k", "agent-000");
await waitUntil(() => {
  const b = feed.output.get(streamerId);
  if (b?.state !== "ready") return false;
  const src = b.source(false);
  return src.end > src.base && src.at(src.end - 1).text.startsWith(`line ${LINES - 1} `);
}, LOAD_WAIT_MS);
const loadMs = performance.now() - loadStart;
const rssEnd = memory();
const idle: number[] = [];
for (let i = 0; i < 40; i++) {
  const delta = i % 2 === 0 ? 1 : -1;
  const ms = await press(delta > 0 ? "j" : "k", nextName(delta));
  if (!Number.isNaN(ms)) idle.push(ms);
  await sleep(50);
}

const held = feed.output.get(streamerId);
const heldTotal = held?.total ?? 0;
const heldKept = held ? held.rendered.end - held.rendered.base : 0;
ink.unmount();
feed.stop();
await target.close();


console.log(`dashboard benchmark (${fake ? "fake in-process daemon" : "real daemon, shell-command agents"}): ${AGENTS} agents, one streaming ${LINES.toLocaleString("en")} lines ${RATE > 0 ? `at ~${RATE.toLocaleString("en")} lines/s` : "as fast as it can"}, ${COLS}x${ROWS}, Ink maxFps ${MAX_FPS}`);
console.log(`  first frame with ${AGENTS} agents:          ${firstFrameMs.toFixed(0)} ms`);
console.log(`  keypress → frame, while streaming:      p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (n=${latencies.length})`);
console.log(`  keypress → frame, idle:                 p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${pct(idle, 99).toFixed(1)} ms (n=${idle.length})`);
console.log(`  frames while streaming:                 ${(framesDuring / streamSecs).toFixed(1)} /s over ${streamSecs.toFixed(1)} s`);
console.log(`  streamer history reloaded in:           ${loadMs.toFixed(0)} ms (read from the end: ${heldTotal.toLocaleString("en")} lines loaded, ${heldKept} kept)`);
console.log(`  Ink render time per frame:              p50 ${pct(renderTimes, 50).toFixed(1)} ms, p99 ${pct(renderTimes, 99).toFixed(1)} ms (n=${renderTimes.length})`);
console.log(`  memory at start:                        ${fmtMem(rssStart)}`);
for (const s of rss) console.log(`  memory after ${s.lines.toLocaleString("en").padStart(7)} lines streamed:     ${fmtMem(s.mem)}`);
console.log(`  memory at end (history reloaded):       ${fmtMem(rssEnd)}`);
process.exit(0);
