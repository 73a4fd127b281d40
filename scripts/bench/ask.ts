/**
 * Conversation latency of the compiled binary, each figure beside its floor measured in the same
 * run (see floor.ts) and the machine's load:
 *  - API round trip: ask (POST) → answer (POST) → the waiting GET returns, over the Unix socket,
 *    through the typed client (checks on every reply) and with bare fetch (the daemon's share),
 *    interleaved with the same three requests to a bare Bun.serve (the floor) and to one that also
 *    does the exchange's SQLite writes (the floor under any daemon that keeps its questions); each
 *    with its p99 and the CPU its server used per exchange, so a tail is ours only where the floors
 *    have none. Run under `chrt -f 20` to see the tails without the rest of the machine's load;
 *  - cold processes: `troupe answer` (the start-up an agent pays per call), interleaved with
 *    `troupe --version` and a compiled hello-world; wall time and the CPU the process used;
 *  - a whole `troupe ask` + `troupe answer` exchange.
 * Usage: bun scripts/bench/ask.ts [roundTrips=1000] [processRuns=100]   (TROUPE_BIN: another build)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { BIN, bareServer, storeServer, helloCommand, line, load, ms, pct, processCpuMs, runtimeOf, timeProcess, type Timed } from "./floor.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { runSync, start } from "../lib/process.ts";

const roundTrips = Number(process.argv[2] ?? 1000);
const processRuns = Number(process.argv[3] ?? 100);
const WARM = 50;

const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
const runtime = mkdtempSync("/tmp/tb-");
const socket = join(runtime, "d.sock");
const floorSocket = join(runtime, "floor.sock");
const storeSocket = join(runtime, "store.sock");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
const run = (args: string[]) => start([BIN, ...args], { env, stdout: "pipe", stderr: "pipe" });

type Reply = { conversation: { id: string; answer: string | null } };
async function call(sock: string, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await unixFetch(sock, `http://troupe${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } });
  return (await res.json()) as Reply;
}

/** POST, then a GET held while a second POST goes: the shape of an ask → answer exchange, without the client. */
async function bareExchange(sock: string, i: number): Promise<string | null> {
  const { conversation } = await call(sock, "POST", "/v1/conversations", { question: `r${i}`, user: true });
  const waiting = call(sock, "GET", `/v1/conversations/${conversation.id}?wait=5000`);
  await call(sock, "POST", `/v1/conversations/${conversation.id}/answer`, { answer: `b${i}` });
  return (await waiting).conversation.answer;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

// the floors run on the runtime of the build measured
const binRuntime = runtimeOf(BIN);
const floor = await bareServer(binRuntime, floorSocket);
const storeFloor = await storeServer(binRuntime, storeSocket, join(runtime, "floor.db"));
try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start; ${BIN} on ${binRuntime}`);
  await run(["daemon", "start"]).exited;
  const client = new TroupeClient({ socket });

  // --- API round trips, the three kinds interleaved so that load moves them alike
  const daemonPid = (await client.health()).pid;
  const typed: number[] = [];
  const raw: number[] = [];
  const bare: number[] = [];
  const stored: number[] = [];
  let cpu0 = 0;
  let floorCpu0 = 0;
  let storeCpu0 = 0;
  for (let i = 0; i < roundTrips + WARM; i++) {
    if (i === WARM) [cpu0, floorCpu0, storeCpu0] = [processCpuMs(daemonPid), processCpuMs(floor.pid), processCpuMs(storeFloor.pid)];
    const [t, answer] = await timed(async () => {
      const conv = await client.ask({ question: `q${i}`, user: true });
      const waiting = client.conversation(conv.id, { wait: 5000 });
      await client.answer(conv.id, { answer: `a${i}` });
      return (await waiting).answer;
    });
    const [r, rawAnswer] = await timed(() => bareExchange(socket, i));
    const [b] = await timed(() => bareExchange(floorSocket, i));
    const [st, storedAnswer] = await timed(() => bareExchange(storeSocket, i));
    if (answer !== `a${i}` || rawAnswer !== `b${i}` || storedAnswer !== `b${i}`) throw new Error("wrong answer");
    if (i < WARM) continue;
    typed.push(t);
    raw.push(r);
    bare.push(b);
    stored.push(st);
  }
  // two exchanges reach the daemon per iteration (typed and bare), one each floor
  const perExchange = (processCpuMs(daemonPid) - cpu0) / (2 * roundTrips);
  const cpuOf = (pid: number, from: number) => `; its CPU ${ms((processCpuMs(pid) - from) / roundTrips)} per exchange`;
  const ratios = (xs: number[]) => `; typed/this ${(pct(typed, 50) / pct(xs, 50)).toFixed(2)}x at the median, ${(pct(typed, 99) / pct(xs, 99)).toFixed(2)}x at p99`;
  console.log(line(`API ask→answer round trip (typed client)`, typed, `; daemon CPU ${ms(perExchange)} per exchange`));
  console.log(line(`API ask→answer round trip (bare fetch)  `, raw));
  console.log(line(`floor: the same 3 requests to a bare ${binRuntime} server`, bare, cpuOf(floor.pid, floorCpu0) + ratios(bare)));
  console.log(line(`floor: a bare ${binRuntime} server doing the same SQLite writes`, stored, cpuOf(storeFloor.pid, storeCpu0) + ratios(stored)));

  // --- cold processes, interleaved
  const hello = await helloCommand(binRuntime);
  const answers: Timed[] = [];
  const versions: Timed[] = [];
  const hellos: Timed[] = [];
  for (let i = 0; i < processRuns + 3; i++) {
    const conv = await client.ask({ question: `p${i}`, user: true });
    const a = await timeProcess([BIN, "answer", "yes", "--conversation", conv.id], env);
    if (a.code !== 0) throw new Error(`troupe answer: ${a.stderr}`);
    const v = await timeProcess([BIN, "--version"], env);
    const h = await timeProcess(hello, env);
    if (i < 3) continue;
    answers.push(a);
    versions.push(v);
    hellos.push(h);
  }
  const wall = (xs: Timed[]) => xs.map((x) => x.wall);
  const cpu = (xs: Timed[]) => xs.map((x) => x.cpu);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const cpuNote = (xs: Timed[]) => `, CPU mean ${ms(mean(cpu(xs)))}`;
  console.log(line(`cold 'troupe answer' process`, wall(answers), cpuNote(answers)));
  console.log(line(`baseline 'troupe --version' process`, wall(versions), cpuNote(versions)));
  console.log(line(`floor: ${binRuntime} hello-world`, wall(hellos), cpuNote(hellos)));
  const r = (a: number[], b: number[]) => (pct(a, 50) / pct(b, 50)).toFixed(2);
  console.log(
    `ratios at the median: answer/--version ${r(wall(answers), wall(versions))} (CPU ${(mean(cpu(answers)) / mean(cpu(versions))).toFixed(2)} at the mean), answer/hello ${r(wall(answers), wall(hellos))}`,
  );

  // --- a whole exchange of two processes
  const pair: number[] = [];
  for (let i = 0; i < Math.min(20, processRuns); i++) {
    const t0 = performance.now();
    const asker = run(["ask", `w${i}`, "--user", "--timeout", "10000"]);
    let conv;
    while (!(conv = (await client.conversations({ pending: true }))[0])) await sleep(1);
    if ((await run(["answer", "yes", "--conversation", conv.id]).exited) !== 0) throw new Error("troupe answer failed");
    const asked = await asker.output();
    if (asked.exitCode !== 0) throw new Error(asked.stderr);
    pair.push(performance.now() - t0);
  }
  console.log(line(`whole 'troupe ask' + 'troupe answer' pair`, pair));

  const mem = runSync(["ps", "-o", "rss=", "-p", String(daemonPid)]).stdout.toString().trim();
  console.log(`daemon RSS after the run: ${(Number(mem) / 1024).toFixed(1)} MB`);
} finally {
  floor.stop();
  storeFloor.stop();
  await run(["daemon", "stop"]).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
