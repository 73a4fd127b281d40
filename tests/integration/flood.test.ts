import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

interface AgentJson {
  id: string;
  name: string;
  status: string;
}

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`http://troupe${path}`, { unix: sb.socket });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const status = async () => (await api<{ agents: AgentJson[] }>("/v1/agents")).agents[0]!.status;

/** Every stored chunk of an agent, paging forwards through the API. */
async function allChunks(name: string): Promise<{ id: number; data: string }[]> {
  const out: { id: number; data: string }[] = [];
  for (let after = 0; ; ) {
    const { chunks } = await api<{ chunks: { id: number; data: string }[] }>(`/v1/agents/${name}/output?after=${after}`);
    if (!chunks.length) return out;
    out.push(...chunks);
    after = chunks[chunks.length - 1]!.id;
  }
}

test("the API answers while a flood is still being stored, and nothing of it is lost", async () => {
  sb = new Sandbox({ git: false });
  const bytes = 200 * 1024 * 1024;
  // made beforehand, so the agent's `cat` writes 200 MB in a fraction of a second, however loaded
  // the machine: its exit is recorded long before the daemon has stored it all
  const line = `${"x".repeat(99)}\n`;
  writeFileSync(join(sb.dir, "big.txt"), line.repeat(bytes / line.length));
  await sb.json(["spawn", "--no-worktree", "--name", "flood", "--command", "cat big.txt", "--json"]);
  const logs = join(sb.dir, ".troupe", "logs", "flood");
  await waitFor("the flood to be written", () => existsSync(join(logs, "1.exit")), 60_000);
  // so the agent is still running: the daemon must answer meanwhile, not once ingest ends (a
  // frozen API answers only after it, when the agent has ended)
  const health = await api<{ pid: number }>("/v1/health");
  expect(health.pid).toBeGreaterThan(0);
  expect(await status()).toBe("running");
  await waitFor("the flood to be stored", async () => (await status()) !== "running", 120_000);
  const chunks = await allChunks("flood");
  let stored = 0;
  for (const c of chunks) stored += c.data.length;
  expect(stored).toBe(bytes);
  expect(chunks.every((c) => c.data.endsWith("\n") || c === chunks[chunks.length - 1])).toBe(true);
}, 180_000);

test("past the cap the oldest output is dropped behind a marker; the store and the raw file stay bounded", async () => {
  sb = new Sandbox({ git: false });
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify({ output: { maxPerAgent: "1MiB" } }));
  const lines = 200_000; // 100-byte numbered lines: 20 MB, twenty times the cap
  await sb.json(["spawn", "--no-worktree", "--name", "chatty", "--command", `seq -f '%099g' 1 ${lines}`, "--json"]);
  await waitFor("chatty to end", async () => (await status()) !== "running", 60_000);

  const [marker, ...kept] = await allChunks("chatty");
  expect(marker!.data).toMatch(/^… [\d.]+ MiB of older output dropped \(cap 1 MiB\)\n$/);
  const text = kept.map((c) => c.data).join("");
  expect(text.length).toBeLessThanOrEqual(1024 * 1024);
  expect(text.length).toBeGreaterThan(512 * 1024);
  // what is kept is the newest output, whole lines, none missing in between
  const numbers = text.trimEnd().split("\n").map(Number);
  expect(numbers[numbers.length - 1]).toBe(lines);
  expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
  const dropped = (numbers[0]! - 1) * 100;
  expect(marker!.data).toContain(`${(dropped / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MiB`);

  // the store did not grow with the flood (its freed pages are reused or given back) ...
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  const pragma = (name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0]!;
  expect(pragma("auto_vacuum")).toBe(2);
  expect(pragma("page_count") * pragma("page_size")).toBeLessThan(8 * 1024 * 1024);
  db.close();
  // ... and neither does the raw file: everything in it is stored, so it was emptied
  expect(statSync(join(sb.dir, ".troupe", "logs", "chatty", "1.out")).size).toBe(0);
}, 120_000);

test("removing an agent gives its output's space back to the file system, with no other output to come", async () => {
  sb = new Sandbox({ git: false });
  const bytes = 48 * 1024 * 1024;
  await sb.json(["spawn", "--no-worktree", "--name", "big", "--command", `yes '${"y".repeat(99)}' | head -c ${bytes}`, "--json"]);
  await waitFor("big to end", async () => (await status()) !== "running", 120_000);
  const dbFile = join(sb.dir, ".troupe", "troupe.db");
  const dbBytes = () => {
    const db = new Database(dbFile, { readonly: true });
    try {
      const pragma = (name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0]!;
      return pragma("page_count") * pragma("page_size");
    } finally {
      db.close();
    }
  };
  expect(dbBytes()).toBeGreaterThan(bytes);
  const rm = await sb.run(["rm", "big"]);
  expect(rm.code).toBe(0);
  // nothing else writes: only the removal can start giving the pages back
  await waitFor("the store to shrink", () => dbBytes() < 24 * 1024 * 1024, 60_000);
}, 180_000);
