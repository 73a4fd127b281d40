/**
 * An API fuzz pass over every route of the daemon (read from src/daemon/routes/*.ts). N seeded
 * cases (fuzz-cases.ts: wrong and custom methods, garbage, truncated, huge and deeply nested JSON,
 * wrong types for each field, NUL bytes, huge strings, odd path params and query values, missing
 * or garbage Host and Authorization, forged tokens, bodies that stop midway, header floods, broken
 * request lines) go over raw connections to the socket, CONCURRENCY at a time; bodies that stall
 * run beside them, each bounded by the daemon's 10 s body timeout plus a margin.
 * Counts per route: 2xx/4xx/5xx, no reply, hung (no answer in time), held (a long poll open as
 * asked), and custom methods without a reply (Bun drops them: oven-sh/bun#6556). After the pass
 * the daemon must answer health with the same pid.
 * Usage: bun scripts/stress/fuzz.ts [--cases 2000] [--seed 1] [--concurrency 16]
 * Exits 1 on any 5xx, hang, or a daemon that died or changed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";
import type { Health } from "../../src/protocol/api-base.ts";
import { makeCase, readRoutes, type FuzzCase } from "./fuzz-cases.ts";
import { api, flags, numberFlag, prng, tempWorkspace, troupe, type StressWorkspace } from "./workspace.ts";
import { runtime } from "../../src/runtime/process.ts";

/** The daemon's body timeout (src/daemon/server.ts BODY_IDLE_MS) and what is allowed on top. */
const BODY_TIMEOUT_MS = 10_000;
const ANSWER_MS = 10_000;
const HOLD_MS = 3_000;

export type Outcome = "2xx" | "3xx" | "4xx" | "5xx" | "5xx (Bun parser)" | "no reply" | "hung" | "held" | "custom, no reply";
export const OUTCOMES: Outcome[] = ["2xx", "3xx", "4xx", "5xx", "5xx (Bun parser)", "no reply", "custom, no reply", "held", "hung"];

export interface FuzzResult {
  cases: number;
  routes: string[];
  table: Map<string, Record<Outcome, number>>;
  /** A few examples of each bad outcome: "outcome route kind: detail". */
  examples: string[];
  /** Stalled bodies: the slowest 408 (ms). */
  slowestStall: number;
  pidBefore: number;
  pidAfter: number | null;
  /** `failed` lines in the daemon log (an unexpected error inside a handler). */
  loggedErrors: number;
  seconds: number;
}

/**
 * Sends one case on its own connection and classifies the first status line that comes back.
 * Bun's socket rather than node:net: a daemon that answers before the body is all sent (413, or a
 * GET that reads no body) makes the next write fail, and node:net then drops the answer unread.
 */
function send(socket: string, c: FuzzCase): Promise<{ outcome: Outcome; ms: number; detail: string }> {
  const t0 = performance.now();
  const limit = c.stallAt !== undefined ? BODY_TIMEOUT_MS + 5_000 : c.longPoll ? HOLD_MS : ANSWER_MS;
  const bytes = Buffer.concat([Buffer.from(c.head, "latin1"), c.stallAt === undefined ? c.body : c.body.subarray(0, c.stallAt)]);
  return new Promise((done) => {
    let got = "";
    let sent = 0;
    let settled = false;
    let conn: { end(): void } | undefined;
    const finish = (outcome: Outcome, detail: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn?.end();
      done({ outcome, ms: performance.now() - t0, detail });
    };
    const timer = setTimeout(() => finish(c.longPoll ? "held" : "hung", `no answer in ${limit} ms`), limit);
    const closed = (why: string) => finish(c.custom ? "custom, no reply" : "no reply", why);
    const pump = (s: { write(b: Uint8Array): number }) => {
      while (sent < bytes.length) {
        const n = s.write(bytes.subarray(sent));
        if (n <= 0) return; // the rest on drain (or never, when the daemon closed)
        sent += n;
      }
    };
    Bun.connect({
      unix: socket,
      socket: {
        open: (s) => {
          conn = s;
          pump(s);
        },
        drain: pump,
        data: (_s, d) => {
          got += d.toString("latin1");
          const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
          if (!m) {
            if (got.length > 12) finish("no reply", `not HTTP: ${JSON.stringify(got.slice(0, 40))}`);
            return;
          }
          // the daemon's own errors are JSON; a bare 5xx comes from Bun's parser before any handler
          const json = /\r\ncontent-type: application\/json/i.test(got.split("\r\n\r\n")[0]!);
          if (m[1]![0] === "5" && !json) finish("5xx (Bun parser)", got.split("\r\n")[0]!);
          else if (got.includes("\r\n\r\n") || m[1]![0] !== "5") finish(`${m[1]![0]}xx` as Outcome, got.split("\r\n\r\n")[1]?.slice(0, 160) ?? "");
        },
        close: () => closed("closed"),
        error: (_s, e) => closed((e as Error & { code?: string }).code ?? e.message),
        connectError: (_s, e) => closed(`connect: ${e.message}`),
      },
    }).catch((e: Error) => closed(`connect: ${e.message}`));
  });
}

/** Things that exist, so that path params sometimes name a real agent or conversation. */
async function fixtures(ws: StressWorkspace): Promise<string[]> {
  const refs: string[] = [];
  for (const name of ["fz-a", "fz-b"]) {
    const r = await api<{ agent: Agent }>(ws, "POST", "/v1/agents", { provider: "generic", command: "true", worktree: false, name, env: ws.env });
    refs.push(r.body.agent.id, r.body.agent.name);
  }
  for (const timeoutMs of [200, 600_000]) {
    const r = await api<{ conversation: Conversation }>(ws, "POST", "/v1/conversations", { question: "fixture?", user: true, timeoutMs });
    refs.push(r.body.conversation.id);
  }
  return refs;
}

export async function runFuzz(ws: StressWorkspace, o: { cases: number; seed: number; concurrency: number }): Promise<FuzzResult> {
  const t0 = performance.now();
  const started = await troupe(ws, ["daemon", "start"]);
  if (started.code !== 0) throw new Error(`daemon start: ${started.stderr}`);
  const pidBefore = (await api<Health>(ws, "GET", "/v1/health")).body.pid;
  const refs = await fixtures(ws);
  const routes = readRoutes();
  const random = prng(o.seed);
  const cases = Array.from({ length: o.cases }, () => makeCase(routes, random, refs));

  const table = new Map<string, Record<Outcome, number>>();
  for (const r of [...routes.map((x) => `${x.method} ${x.pattern}`), "(raw)"]) table.set(r, Object.fromEntries(OUTCOMES.map((k) => [k, 0])) as Record<Outcome, number>);
  const examples: string[] = [];
  let slowestStall = 0;
  const run = async (c: FuzzCase) => {
    const r = await send(ws.socket, c);
    table.get(c.route)![r.outcome]++;
    if (c.stallAt !== undefined && r.outcome === "4xx") slowestStall = Math.max(slowestStall, r.ms);
    const bad = r.outcome === "5xx" || r.outcome === "hung" || r.outcome === "no reply";
    if (bad && examples.filter((e) => e.startsWith(`${r.outcome} ${c.route} ${c.kind}`)).length < 1) {
      examples.push(`${r.outcome} ${c.route} ${c.kind} (${c.method} ${c.head.split(" ")[1]?.slice(0, 80)}): ${r.detail}`);
    }
  };
  // stalled bodies wait out the daemon's body timeout beside the others, not in a pool slot
  const stalled = cases.filter((c) => c.stallAt !== undefined).map(run);
  const queue = cases.filter((c) => c.stallAt === undefined);
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) await run(c);
    }),
  );
  await Promise.all(stalled);

  let pidAfter: number | null = null;
  try {
    const h = await api<Health>(ws, "GET", "/v1/health");
    pidAfter = h.status === 200 ? h.body.pid : null;
  } catch {
    // the daemon is gone
  }
  const log = readFileSync(join(ws.dir, ".troupe", "daemon.log"), "utf8");
  return {
    cases: o.cases,
    routes: [...table.keys()],
    table,
    examples,
    slowestStall,
    pidBefore,
    pidAfter,
    loggedErrors: log.split("\n").filter((l) => / failed\b/.test(l) && /\b(GET|POST|PUT|PATCH|DELETE)\b/.test(l)).length,
    seconds: (performance.now() - t0) / 1000,
  };
}

export function totals(r: FuzzResult): Record<Outcome, number> {
  const t = Object.fromEntries(OUTCOMES.map((k) => [k, 0])) as Record<Outcome, number>;
  for (const row of r.table.values()) for (const k of OUTCOMES) t[k] += row[k];
  return t;
}

export function formatFuzz(r: FuzzResult): string {
  const w = Math.max(...r.routes.map((x) => x.length));
  const cols = OUTCOMES.map((k) => k.padStart(Math.max(5, k.length))).join(" ");
  const row = (name: string, v: Record<Outcome, number>) => `${name.padEnd(w)} ${OUTCOMES.map((k) => String(v[k]).padStart(Math.max(5, k.length))).join(" ")}`;
  return [
    `${"route".padEnd(w)} ${cols}`,
    ...[...r.table].map(([name, v]) => row(name, v)),
    row("total", totals(r)),
    ...r.examples.map((e) => `  e.g. ${e}`),
    `stalled bodies: slowest 408 after ${(r.slowestStall / 1000).toFixed(1)} s; errors logged by handlers ${r.loggedErrors}`,
    `daemon pid before ${r.pidBefore}, after ${r.pidAfter ?? "none (gone)"}; wall time ${r.seconds.toFixed(1)} s`,
  ].join("\n");
}

if (import.meta.main) {
  const f = flags(process.argv.slice(2));
  const o = { cases: numberFlag(f, "cases", 2000), seed: numberFlag(f, "seed", 1), concurrency: numberFlag(f, "concurrency", 16) };
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${runtime.name} ${runtime.version}; ${o.cases} cases, seed ${o.seed}, ${o.concurrency} at a time`);
  const ws = tempWorkspace("fuzz");
  try {
    const r = await runFuzz(ws, o);
    console.log(formatFuzz(r));
    const t = totals(r);
    process.exitCode = t["5xx"] > 0 || t.hung > 0 || r.pidAfter !== r.pidBefore ? 1 : 0;
  } finally {
    await ws.remove();
  }
}
