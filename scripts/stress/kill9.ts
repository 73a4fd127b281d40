/**
 * `kill -9` of the daemon while many agents stream. N agents (`--command`, no worktree) each run
 * writer.ts, which writes its share of LINES lines over about SECONDS (10 KB lines, UTF-8 split
 * across writes, a last line without newline). While they write, the daemon is killed with
 * SIGKILL K times at seeded random moments, and each time a client (`troupe ls`) starts a new
 * one. At the end every agent's stored stdout (GET /v1/agents/:ref/output) must equal what it
 * wrote byte for byte, and every agent must be `done` with its own result.
 * Usage: bun scripts/stress/kill9.ts [--agents 50] [--lines 100000] [--kills 3] [--seconds 10] [--seed 1] [--runs 1]
 * Prints per run: lines expected/stored/lost/doubled/reordered/corrupt, agents with output not
 * byte-identical, wrong statuses, daemons killed, daemons alive at the end, wall time.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { OutputChunk } from "../../src/protocol/output.ts";
import { isLive } from "../../src/protocol/status.ts";
import { expectedOutput, expectedResult } from "./writer.ts";
import { api, daemonProcesses, flags, lockHolders, numberFlag, prng, tempWorkspace, troupe, type StressWorkspace } from "./workspace.ts";
import { runtime, sleep } from "../../src/runtime/process.ts";

export interface Kill9Options {
  agents: number;
  /** Lines in all, shared between the agents. */
  lines: number;
  kills: number;
  /** About how long each agent writes. */
  seconds: number;
  seed: number;
}

export interface Kill9Result {
  linesExpected: number;
  linesStored: number;
  lost: number;
  doubled: number;
  reordered: number;
  /** Stored lines that are no line written (a broken character, two lines run together). */
  corrupt: number;
  /** Agents whose stored stdout is not byte for byte what they wrote (names). */
  notIdentical: string[];
  /** Agents not `done` with their own result: "name: status result". */
  wrongStatus: string[];
  killed: number;
  /** Agents whose writer had not finished at each kill. */
  streamingAtKill: number[];
  /** Clients that failed to bring a daemon back after a kill (their stderr). */
  clientFailures: string[];
  daemonsAtEnd: number;
  seconds: number;
}

const name = (i: number) => `k${i}`;

/** Every stdout chunk of session 1, oldest first, paging through the API. */
async function storedStdout(ws: StressWorkspace, ref: string): Promise<string> {
  let after = 0;
  let text = "";
  for (;;) {
    const page = await api<{ chunks: OutputChunk[] }>(ws, "GET", `/v1/agents/${ref}/output?after=${after}&limit=10000`);
    if (page.status !== 200) throw new Error(`output of ${ref}: HTTP ${page.status}`);
    if (page.body.chunks.length === 0) return text;
    for (const c of page.body.chunks) if (c.stream === "stdout" && c.session === 1) text += c.data;
    after = page.body.chunks.at(-1)!.id;
  }
}

/** Compares stored lines with written ones (every written line is unique). */
export function compareLines(expected: string, stored: string): { stored: number; lost: number; doubled: number; reordered: number; corrupt: number } {
  const pos = new Map(expected.split("\n").map((l, i) => [l, i]));
  const lines = stored === "" ? [] : stored.split("\n");
  const seen = new Set<number>();
  let doubled = 0;
  let reordered = 0;
  let corrupt = 0;
  let last = -1;
  for (const l of lines) {
    const p = pos.get(l);
    if (p === undefined) corrupt++;
    else if (seen.has(p)) doubled++;
    else {
      seen.add(p);
      if (p < last) reordered++;
      last = Math.max(last, p);
    }
  }
  return { stored: lines.length, lost: pos.size - seen.size, doubled, reordered, corrupt };
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(50);
  }
}

export async function runKill9(ws: StressWorkspace, o: Kill9Options): Promise<Kill9Result> {
  const t0 = performance.now();
  const random = prng(o.seed);
  const perAgent = Math.ceil(o.lines / o.agents);
  const writer = resolve(import.meta.dirname, "writer.ts");
  const started = await troupe(ws, ["daemon", "start"]);
  if (started.code !== 0) throw new Error(`daemon start: ${started.stderr}`);

  const spawnOne = async (i: number) => {
    const command = `'${process.execPath}' '${writer}' ${i} ${perAgent} ${o.seconds} && troupe signal done --result '${expectedResult(i, perAgent)}' >&2`;
    const r = await api<{ agent?: Agent; error?: { message: string } }>(ws, "POST", "/v1/agents", { provider: "generic", command, worktree: false, name: name(i), env: ws.env });
    if (r.status !== 201) throw new Error(`spawn ${name(i)}: HTTP ${r.status} ${r.body.error?.message}`);
  };
  for (let i = 0; i < o.agents; i += 10) await Promise.all(Array.from({ length: Math.min(10, o.agents - i) }, (_, j) => spawnOne(i + j)));
  const spawned = performance.now();

  // the kills land inside the writing window, in order, seeded
  const at = Array.from({ length: o.kills }, () => (0.15 + 0.65 * random()) * o.seconds * 1000).sort((a, b) => a - b);
  const exited = (i: number) => existsSync(join(ws.dir, ".troupe", "logs", name(i), "1.exit"));
  const streamingAtKill: number[] = [];
  const clientFailures: string[] = [];
  let killed = 0;
  for (const ms of at) {
    const wait = spawned + ms - performance.now();
    if (wait > 0) await sleep(wait);
    const [pid] = lockHolders(ws);
    if (pid === undefined) throw new Error("no daemon holds the lock before a kill");
    streamingAtKill.push(Array.from({ length: o.agents }, (_, i) => i).filter((i) => !exited(i)).length);
    process.kill(pid, "SIGKILL");
    killed++;
    await waitUntil(`daemon ${pid} to die`, () => !existsSync(`/proc/${pid}`) || lockHolders(ws).length === 0, 10_000);
    const r = await troupe(ws, ["ls", "--json"]); // a client finds no daemon and starts one
    if (r.code !== 0) clientFailures.push(r.stderr.trim());
  }

  const agents = async () => (await api<{ agents: Agent[] }>(ws, "GET", "/v1/agents")).body.agents;
  await waitUntil("every agent to end", async () => (await agents()).every((a) => !isLive(a.status)), (o.seconds + 120) * 1000);

  const result: Kill9Result = {
    linesExpected: perAgent * o.agents,
    linesStored: 0,
    lost: 0,
    doubled: 0,
    reordered: 0,
    corrupt: 0,
    notIdentical: [],
    wrongStatus: [],
    killed,
    streamingAtKill,
    clientFailures,
    daemonsAtEnd: 0,
    seconds: 0,
  };
  const byName = new Map((await agents()).map((a) => [a.name, a]));
  for (let i = 0; i < o.agents; i++) {
    const a = byName.get(name(i));
    if (a?.status !== "done" || a.result !== expectedResult(i, perAgent)) result.wrongStatus.push(`${name(i)}: ${a?.status} ${a?.result ?? a?.error ?? ""}`);
    const expected = expectedOutput(i, perAgent);
    const stored = await storedStdout(ws, name(i));
    const c = compareLines(expected, stored);
    result.linesStored += c.stored;
    result.lost += c.lost;
    result.doubled += c.doubled;
    result.reordered += c.reordered;
    result.corrupt += c.corrupt;
    if (stored !== expected) result.notIdentical.push(name(i));
  }
  result.daemonsAtEnd = daemonProcesses(ws).length;
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}

export function formatKill9(o: Kill9Options, r: Kill9Result): string {
  return [
    `agents ${o.agents}, lines expected ${r.linesExpected}, stored ${r.linesStored}, lost ${r.lost}, doubled ${r.doubled}, reordered ${r.reordered}, corrupt ${r.corrupt}`,
    `agents not byte-identical ${r.notIdentical.length}${r.notIdentical.length ? ` (${r.notIdentical.slice(0, 10).join(", ")})` : ""}; wrong status ${r.wrongStatus.length}${r.wrongStatus.length ? ` (${r.wrongStatus.slice(0, 5).join("; ")})` : ""}`,
    `daemons killed ${r.killed} (agents streaming at each kill: ${r.streamingAtKill.join(", ")}); client failures ${r.clientFailures.length}${r.clientFailures.length ? ` (${r.clientFailures[0]})` : ""}; daemons alive at the end ${r.daemonsAtEnd}`,
    `wall time ${r.seconds.toFixed(1)} s`,
  ].join("\n");
}

if (import.meta.main) {
  const f = flags(process.argv.slice(2));
  const o: Kill9Options = {
    agents: numberFlag(f, "agents", 50),
    lines: numberFlag(f, "lines", 100_000),
    kills: numberFlag(f, "kills", 3),
    seconds: numberFlag(f, "seconds", 10),
    seed: numberFlag(f, "seed", 1),
  };
  const runs = numberFlag(f, "runs", 1);
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; seed ${o.seed}`);
  let failed = false;
  for (let run = 1; run <= runs; run++) {
    const ws = tempWorkspace("kill9");
    try {
      const r = await runKill9(ws, { ...o, seed: o.seed + run - 1 });
      console.log(`run ${run}:\n${formatKill9(o, r)}`);
      failed ||= r.lost + r.doubled + r.reordered + r.corrupt + r.notIdentical.length + r.wrongStatus.length + r.clientFailures.length > 0 || r.daemonsAtEnd !== 1;
    } finally {
      await ws.remove();
    }
  }
  process.exit(failed ? 1 : 0);
}
