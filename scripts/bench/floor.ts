/**
 * What the start-up and round-trip benchmarks (ask.ts, spawn.ts) share: percentiles, the machine's
 * load printed beside each figure (other work on a 2-core machine moves every timing), the CPU a
 * child used (less moved by load than its wall time), and the floors measured in the same run:
 * a compiled Bun hello-world (process start and exit, nothing of troupe), and a bare HTTP exchange
 * over a Unix socket (what Bun costs before any of troupe's request path).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BIN = process.env.TROUPE_BIN ?? join(ROOT, "dist", "troupe");

export const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
export const ms = (v: number): string => `${v.toFixed(2)} ms`;
export const load = (): string => `load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`;

/** `label: median X, p99 Y (n runs) · load` */
export function line(label: string, xs: number[], extra = ""): string {
  return `${label}: median ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))} (${xs.length} runs)${extra} · ${load()}`;
}

/** CPU (user + system, all threads) a running process has used so far, from /proc (10 ms ticks). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface Timed {
  wall: number;
  /** user + system CPU of the child */
  cpu: number;
  code: number;
  stderr: string;
}

/** Runs argv to its end: wall time from spawn to exit, and the CPU it used. */
export async function timeProcess(argv: string[], env: Record<string, string | undefined>): Promise<Timed> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, stdout: "ignore", stderr: "pipe" });
  const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  const wall = performance.now() - t0;
  const r = p.resourceUsage();
  const cpu = r ? Number(r.cpuTime.user + r.cpuTime.system) / 1000 : NaN;
  return { wall, cpu, code, stderr };
}

/**
 * A compiled Bun program that writes one line and exits, built like troupe (bytecode, minified):
 * the floor under any compiled command on this machine.
 */
export async function helloBinary(): Promise<string> {
  const dir = join(ROOT, "dist", "bench-hello");
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, "hello.ts");
  writeFileSync(entry, `import { writeSync } from "node:fs";\nwriteSync(1, "hello\\n");\n`);
  const outfile = join(dir, "hello");
  const r = await compileBinary({ entry, outfile, define: {} });
  if (!r.ok) throw new Error(`building the hello-world: ${r.errors.join("; ")}`);
  return outfile;
}

/** A server started by `bun -e`, ready once it answers on its socket; its pid for its CPU. */
async function startServer(socket: string, code: string): Promise<{ pid: number; stop: () => void }> {
  const proc = Bun.spawn([process.execPath, "-e", code], { stdout: "ignore", stderr: "inherit", env: { ...process.env, BUN_GC_TIMER_DISABLE: "1" } });
  for (let i = 0; i < 500; i++) {
    try {
      await fetch("http://floor/", { unix: socket });
      return { pid: proc.pid, stop: () => proc.kill() };
    } catch {
      await Bun.sleep(10);
    }
  }
  proc.kill();
  throw new Error("a floor server did not start");
}

/**
 * A bare Bun.serve on a Unix socket in its own process, answering every request with a small
 * JSON body at once: the floor under a round trip of three requests to the daemon.
 */
export function bareServer(socket: string): Promise<{ pid: number; stop: () => void }> {
  return startServer(
    socket,
    `Bun.serve({ unix: ${JSON.stringify(socket)}, async fetch(req) { if (req.method === "POST") await req.text(); return Response.json({ conversation: { id: "cv_1", answer: "a" } }); } });`,
  );
}

/**
 * The floor under a daemon that keeps its questions: a bare Bun.serve doing what an ask → answer
 * exchange must write, with the store's settings (WAL, synchronous=NORMAL, the conversations
 * table and its indexes, an event row per change), each write its own commit, and a waiting GET
 * woken from memory. Nothing of troupe's code: what Bun and SQLite cost for the same exchange.
 */
export function storeServer(socket: string, dbPath: string): Promise<{ pid: number; stop: () => void }> {
  const code = `
const { Database } = require("bun:sqlite");
const db = new Database(${JSON.stringify(dbPath)});
for (const p of ["journal_mode = WAL", "synchronous = NORMAL", "secure_delete = ON"]) db.exec("PRAGMA " + p);
db.exec(\`CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, from_id TEXT NOT NULL, from_name TEXT NOT NULL, to_id TEXT NOT NULL,
  to_name TEXT NOT NULL, question TEXT NOT NULL, answer TEXT, answered_by TEXT, status TEXT NOT NULL, task_id TEXT, phase_id TEXT,
  created_at INTEGER NOT NULL, expires_at INTEGER, answered_at INTEGER, lease_session INTEGER);
CREATE INDEX IF NOT EXISTS conversations_to ON conversations(to_id, status, created_at);
CREATE INDEX IF NOT EXISTS conversations_expiry ON conversations(status, expires_at);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, payload TEXT NOT NULL, created_at INTEGER NOT NULL);\`);
const ins = db.query("INSERT INTO conversations (id, from_id, from_name, to_id, to_name, question, status, created_at) VALUES (?, 'user', 'user', 'user', 'user', ?, 'pending', ?) RETURNING *");
const ans = db.query("UPDATE conversations SET status = 'answered', answer = ?, answered_by = 'user', answered_at = ? WHERE id = ? AND status IN ('pending', 'delivered') RETURNING *");
const get = db.query("SELECT * FROM conversations WHERE id = ?");
const ev = db.query("INSERT INTO events (type, payload, created_at) VALUES (?, ?, ?) RETURNING id");
const waiting = new Map();
let n = 0;
Bun.serve({ unix: ${JSON.stringify(socket)}, async fetch(req) {
  const path = new URL(req.url).pathname;
  if (req.method === "POST" && path === "/v1/conversations") {
    const body = await req.json();
    const c = ins.get("cv_" + ++n + "_" + process.pid, body.question, Date.now());
    ev.get("conversation:created", JSON.stringify({ type: "conversation:created", conversation: c }), Date.now());
    return Response.json({ conversation: c }, { status: 201 });
  }
  const id = path.split("/")[3];
  if (req.method === "POST") {
    const body = await req.json();
    const c = ans.get(body.answer, Date.now(), id);
    ev.get("conversation:updated", JSON.stringify({ type: "conversation:updated", conversation: c }), Date.now());
    for (const w of waiting.get(id) ?? []) w(c);
    waiting.delete(id);
    return Response.json({ conversation: c });
  }
  if (!id) return Response.json({});
  const c = get.get(id);
  if (c.status === "answered") return Response.json({ conversation: c });
  const answered = await new Promise((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]));
  return Response.json({ conversation: answered });
} });`;
  return startServer(socket, code);
}
