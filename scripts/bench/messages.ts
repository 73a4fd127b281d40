/**
 * Message delivery of the compiled binary:
 *  - push latency: from `send` to a waiting inbox long poll (`GET /v1/inbox?wait=`) returning the
 *    message, over the Unix socket through the typed client (what `wait_for_message` does);
 *  - beside it, the 500 ms polling design of JSONL-inbox orchestrators, simulated on the same
 *    daemon: each reader asks `GET /v1/inbox` (no wait) every 500 ms, messages are sent at
 *    random moments, latency measured the same way (send → the read that returns it); 20
 *    readers at once so that 1000 samples take ~40 s rather than ~8 min;
 *  - 1000 messages to a busy agent: sent while its run waits, then the run ends; time until
 *    every message reached it (its next runs' prompts, then its inbox), checked in order, once each.
 * Usage: bun scripts/bench/messages.ts [samples=1000] [busyRuns=3]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { start } from "../lib/process.ts";

const BIN = resolve(import.meta.dirname, "../../dist/troupe");
const samples = Number(process.argv[2] ?? 1000);
const busyRuns = Number(process.argv[3] ?? 3);
const POLL_MS = 500;
const READERS = 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const summary = (xs: number[]) => `p50 ${fmt(pct(xs, 50))}, p99 ${fmt(pct(xs, 99))}, max ${fmt(Math.max(...xs))} (n=${xs.length})`;

const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
const runtime = mkdtempSync("/tmp/tb-");
const socket = join(runtime, "d.sock");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
const run = (args: string[]) => start([BIN, ...args], { env, stdout: "pipe", stderr: "pipe" });
const person = new TroupeClient({ socket });

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A live agent that only sleeps, and a client speaking as it (its token). */
async function reader(name: string): Promise<TroupeClient> {
  const file = join(dir, `${name}.token`);
  await person.spawn({ provider: "generic", name, worktree: false, command: `printf %s "$TROUPE_AGENT_TOKEN" > ${file}.tmp && mv ${file}.tmp ${file}; exec sleep 3600`, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  const token = await until(`${name}'s token`, () => (existsSync(file) ? readFileSync(file, "utf8") : undefined));
  return new TroupeClient({ socket, token });
}

async function pushLatency(): Promise<number[]> {
  const inbox = await reader("pushed");
  const out: number[] = [];
  for (let i = 0; i < samples + 50; i++) {
    const waiting = inbox.inbox({ wait: 30_000 });
    // let the long poll reach the daemon first: a wait that starts late would measure nothing
    await sleep(1);
    const t0 = performance.now();
    await person.send({ to: "pushed", text: `p${i}` });
    const got = await waiting;
    const t1 = performance.now();
    if (got.length !== 1 || got[0]!.text !== `p${i}`) throw new Error(`push: got ${JSON.stringify(got.map((m) => m.text))}`);
    if (i >= 50) out.push(t1 - t0);
  }
  return out;
}

async function pollLatency(): Promise<number[]> {
  const out: number[] = [];
  const perReader = Math.ceil(samples / READERS);
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      const name = `polled${r}`;
      const inbox = await reader(name);
      const sentAt = new Map<string, number>();
      let received = 0;
      let stop = false;
      const poller = (async () => {
        // a fixed 500 ms cadence, as a JSONL-file watcher polls
        for (let next = performance.now(); !stop; next += POLL_MS) {
          await sleep(Math.max(0, next - performance.now()));
          for (const m of await inbox.inbox({})) {
            out.push(performance.now() - sentAt.get(m.text)!);
            received++;
          }
        }
      })();
      for (let i = 0; i < perReader; i++) {
        await sleep(Math.random() * POLL_MS * 1.5);
        const text = `${name}-${i}`;
        sentAt.set(text, performance.now());
        await person.send({ to: name, text });
      }
      await until(`${name}'s messages`, () => (received === perReader ? true : undefined));
      stop = true;
      await poller;
    }),
  );
  return out;
}

/**
 * The busy agent's runs: the first works (waits for `go`) and never looks at its inbox; each later
 * run records the messages its prompt carries, then reads its inbox.
 */
const busyAgent = (name: string) =>
  [
    `while [ ! -f ${name}.go ]; do sleep 0.05; done`,
    `n=$(cat ${name}.runs 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${name}.runs`,
    `printf '%s\\n' "$TROUPE_PROMPT" | sed -n 's/^\\[\\(msg_[0-9]*\\)\\] from .*/prompt \\1/p' >> ${name}.log`,
    `if [ $n -gt 1 ]; then troupe inbox --json | grep -o '"id":"msg_[0-9]*"' | sed 's/"id":"\\(.*\\)"/inbox \\1/' >> ${name}.log; fi`,
    `troupe signal done --result ok`,
  ].join("; ");

async function busy(k: number): Promise<{ ms: number; sessions: number; prompt: number; inbox: number }> {
  const name = `busy${k}`;
  await person.spawn({ provider: "generic", name, worktree: false, command: busyAgent(name), env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) ids.push((await person.send({ to: name, text: `m${String(i).padStart(4, "0")}` }))[0]!.id);
  const logFile = join(dir, `${name}.log`);
  const t0 = performance.now();
  writeFileSync(join(dir, `${name}.go`), "");
  const lines = await until(`${name}'s 1000 messages`, () => {
    const l = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").filter(Boolean) : [];
    return l.length >= 1000 ? l : undefined;
  });
  const ms = performance.now() - t0;
  const got = lines.map((l) => l.split(" ")[1]);
  if (JSON.stringify(got) !== JSON.stringify(ids)) throw new Error(`${name}: out of order, missing or doubled`);
  const agent: Agent = await until(`${name} done`, async () => {
    const a = await person.agent(name);
    return a.status === "done" ? a : undefined;
  });
  return { ms, sessions: agent.session, prompt: lines.filter((l) => l.startsWith("prompt")).length, inbox: lines.filter((l) => l.startsWith("inbox")).length };
}

try {
  await run(["daemon", "start"]).exited;
  const push = await pushLatency();
  const poll = await pollLatency();
  const busyResults = [];
  for (let k = 0; k < busyRuns; k++) busyResults.push(await busy(k));
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}`);
  console.log(`send → waiting inbox long poll (push):        ${summary(push)}`);
  console.log(`send → inbox polled every ${POLL_MS} ms (simulated): ${summary(poll)}`);
  const times = busyResults.map((b) => b.ms);
  console.log(`1000 messages to a busy agent, from its run's end to all delivered in order (${busyRuns} runs): median ${fmt(pct(times, 50))}, max ${fmt(Math.max(...times))}`);
  for (const b of busyResults) console.log(`  ${fmt(b.ms)}: ${b.prompt} in the next run's prompt, ${b.inbox} through its inbox; ${b.sessions} sessions in all`);
} finally {
  await run(["daemon", "stop"]).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
