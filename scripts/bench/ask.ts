/**
 * Conversation latency of the compiled binary:
 *  - API round trip: ask (POST) → answer (POST) → the waiting GET returns, over the Unix socket,
 *    through the typed client (zod on every reply) and with bare fetch (the daemon's share);
 *  - process pair: wall time of a whole `troupe ask` + `troupe answer` exchange, and of a cold
 *    `troupe answer` process alone (the start-up cost an agent pays per call).
 * Usage: bun scripts/bench/ask.ts [roundTrips=1000] [processRuns=20]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";

const BIN = resolve(import.meta.dir, "../../dist/troupe");
const roundTrips = Number(process.argv[2] ?? 1000);
const processRuns = Number(process.argv[3] ?? 20);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
const runtime = mkdtempSync("/tmp/tb-");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: join(runtime, "d.sock") } as Record<string, string>;
const run = (args: string[]) => Bun.spawn([BIN, ...args], { env, stdout: "pipe", stderr: "pipe" });

try {
  await run(["daemon", "start"]).exited;
  const client = new TroupeClient({ socket: env.TROUPE_SOCKET! });

  // warm-up, then measured round trips
  const api: number[] = [];
  for (let i = 0; i < roundTrips + 50; i++) {
    const t0 = performance.now();
    const conv = await client.ask({ question: `q${i}`, user: true });
    const waiting = client.conversation(conv.id, 5000);
    await client.answer(conv.id, `a${i}`);
    const done = await waiting;
    if (done.answer !== `a${i}`) throw new Error("wrong answer");
    if (i >= 50) api.push(performance.now() - t0);
  }

  // the same exchange with bare fetch: what the daemon and the socket cost without the client's parsing
  const raw: number[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://troupe${path}`, { method, unix: env.TROUPE_SOCKET!, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } });
    return (await res.json()) as { conversation: { id: string; answer: string | null } };
  };
  for (let i = 0; i < roundTrips + 50; i++) {
    const t0 = performance.now();
    const { conversation } = await call("POST", "/v1/conversations", { question: `r${i}`, user: true });
    const waiting = call("GET", `/v1/conversations/${conversation.id}?wait=5000`);
    await call("POST", `/v1/conversations/${conversation.id}/answer`, { answer: `b${i}` });
    if ((await waiting).conversation.answer !== `b${i}`) throw new Error("wrong answer");
    if (i >= 50) raw.push(performance.now() - t0);
  }

  // cold processes: `troupe ask --user` waiting, `troupe answer` from another process
  const pair: number[] = [];
  const answerOnly: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < processRuns + 2; i++) {
    const t0 = performance.now();
    const asker = run(["ask", `p${i}`, "--user", "--timeout", "10000"]);
    let conv;
    for (;;) {
      conv = (await client.conversations({ pending: true }))[0];
      if (conv) break;
      await Bun.sleep(1);
    }
    const t1 = performance.now();
    const answer = run(["answer", "yes", "--conversation", conv.id]);
    if ((await answer.exited) !== 0) throw new Error(await new Response(answer.stderr).text());
    const t2 = performance.now();
    if ((await asker.exited) !== 0) throw new Error(await new Response(asker.stderr).text());
    const t3 = performance.now();
    const v0 = performance.now();
    await run(["--version"]).exited;
    const v1 = performance.now();
    if (i >= 2) {
      pair.push(t3 - t0);
      answerOnly.push(t2 - t1);
      version.push(v1 - v0);
    }
  }

  const mem = Bun.spawnSync(["ps", "-o", "rss=", "-p", String((await client.health()).pid)]).stdout.toString().trim();
  console.log(`machine: ${navigator.hardwareConcurrency} cores, bun ${Bun.version}`);
  console.log(`API ask→answer round trip over ${roundTrips} (typed client): p50 ${fmt(pct(api, 50))}, p99 ${fmt(pct(api, 99))}, max ${fmt(Math.max(...api))}`);
  console.log(`API ask→answer round trip over ${roundTrips} (bare fetch):   p50 ${fmt(pct(raw, 50))}, p99 ${fmt(pct(raw, 99))}, max ${fmt(Math.max(...raw))}`);
  console.log(`cold 'troupe answer' process (median of ${processRuns}): ${fmt(pct(answerOnly, 50))} (p90 ${fmt(pct(answerOnly, 90))})`);
  console.log(`whole 'troupe ask' + 'troupe answer' pair (median of ${processRuns}): ${fmt(pct(pair, 50))}`);
  console.log(`baseline 'troupe --version' process (median of ${processRuns}): ${fmt(pct(version, 50))}; answer/version ratio ${(pct(answerOnly, 50) / pct(version, 50)).toFixed(2)}`);
  console.log(`daemon RSS after the run: ${(Number(mem) / 1024).toFixed(1)} MB`);
} finally {
  await run(["daemon", "stop"]).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
