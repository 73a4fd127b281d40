import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Database } from "../../src/runtime/sqlite.ts";
import { migrate, migrateTo, openStore } from "../../src/store/db.ts";
import { ChunkRepo, type Piece } from "../../src/store/chunks.ts";

// Where a session's files are stored to and each agent's stored total live in the chunk rows
// (migration 22, src/store/output-tally.ts): read back by a fresh process (a restarted daemon), across a
// migration, a session change, a drop under the cap and a transaction that fails.

let dir: string;
let db: Database;
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const AGENT = `INSERT INTO agents (id, name, provider, status, cwd, token_hash, signal_file, created_at, updated_at) VALUES ('a1', 'otter', 'generic', 'running', '/', 'h', '/s', 1, 1)`;
const SESSION = (n: number) =>
  `INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at) VALUES ('a1', ${n}, 'o${n}', 'e${n}', 'x${n}', 1)`;

const piece = (session: number, stream: "stdout" | "stderr", data: string, offset: number): Piece => ({
  agentId: "a1",
  session,
  stream,
  data,
  bytes: Buffer.byteLength(data),
  offset,
});

/** A fresh repo on the same file: what a daemon started after a kill -9 reads. */
const reopened = () => new ChunkRepo(db);
const sessionRow = (n: number) => db.query("SELECT stdout_offset, stderr_offset FROM agent_sessions WHERE agent_id = 'a1' AND session = ?").get(n);

function fresh(): ChunkRepo {
  dir = mkdtempSync(join(tmpdir(), "troupe-chunks-"));
  db = openStore(join(dir, "troupe.db"));
  db.exec(AGENT);
  db.exec(SESSION(1));
  return new ChunkRepo(db);
}

test("storing a line is one row: its offsets and the agent's total are read back by a fresh process, the session row untouched", () => {
  const chunks = fresh();
  const { stored } = chunks.appendMany([piece(1, "stdout", "one\n", 4), piece(1, "stderr", "warn\n", 5), piece(1, "stdout", "two\n", 8)]);
  expect(stored.get("a1")).toBe(13);
  chunks.appendMany([piece(1, "stderr", "again\n", 11)]);
  expect(chunks.offsets("a1", 1)).toEqual({ stdout: 8, stderr: 11 });
  expect(sessionRow(1)).toEqual({ stdout_offset: 0, stderr_offset: 0 }); // no write per line
  const again = reopened();
  expect(again.offsets("a1", 1)).toEqual({ stdout: 8, stderr: 11 });
  expect(again.usage("a1")).toEqual({ stored: 19, dropped: 0 });
  expect(again.offsets("a1", 2)).toBeNull(); // no such session
});

test("a new session's chunks leave the old session's offsets in its row; both are read back", () => {
  const chunks = fresh();
  chunks.appendMany([piece(1, "stdout", "a\n", 2), piece(1, "stderr", "e\n", 2)]);
  db.exec(SESSION(2));
  chunks.appendMany([piece(2, "stdout", "b\n", 2)]);
  expect(sessionRow(1)).toEqual({ stdout_offset: 2, stderr_offset: 2 });
  const again = reopened();
  expect(again.offsets("a1", 1)).toEqual({ stdout: 2, stderr: 2 });
  expect(again.offsets("a1", 2)).toEqual({ stdout: 2, stderr: 0 });
  expect(again.usage("a1").stored).toBe(6);
  // a late piece of the old session (finishing it after the new one began) keeps both right
  again.appendMany([piece(1, "stdout", "late\n", 7)]);
  const third = reopened();
  expect(third.offsets("a1", 1)).toEqual({ stdout: 7, stderr: 2 });
  expect(third.offsets("a1", 2)).toEqual({ stdout: 2, stderr: 0 });
});

test("dropping every chunk under the cap keeps the offsets and the totals", () => {
  const chunks = fresh();
  chunks.appendMany([piece(1, "stdout", "x".repeat(99) + "\n", 100), piece(1, "stderr", "y".repeat(49) + "\n", 50)]);
  expect(chunks.dropOldest("a1", 1000, 1000, 10)).toBe(0);
  const again = reopened();
  expect(again.offsets("a1", 1)).toEqual({ stdout: 100, stderr: 50 });
  expect(again.usage("a1")).toEqual({ stored: 0, dropped: 150 });
  expect(again.list("a1", {}).map((c) => c.stream)).toEqual(["troupe"]);
  again.appendMany([piece(1, "stdout", "z\n", 102)]);
  expect(reopened().usage("a1")).toEqual({ stored: 2, dropped: 150 });
  expect(again.agentsOver(1)).toEqual(["a1"]);
  expect(again.agentsOver(2)).toEqual([]);
});

test("a transaction that fails moves nothing on: the next one stores from where the store is", () => {
  const chunks = fresh();
  chunks.appendMany([piece(1, "stdout", "a\n", 2)]);
  // the second piece names an agent that does not exist: the foreign key fails the whole batch
  expect(() => chunks.appendMany([piece(1, "stdout", "b\n", 4), { ...piece(1, "stdout", "c\n", 6), agentId: "nobody" }])).toThrow();
  expect(chunks.offsets("a1", 1)).toEqual({ stdout: 2, stderr: 0 });
  chunks.appendMany([piece(1, "stderr", "e\n", 2)]);
  expect(reopened().offsets("a1", 1)).toEqual({ stdout: 2, stderr: 2 });
  expect(reopened().usage("a1").stored).toBe(4);
});

test("a store from before migration 22 (offsets in the session row, the total in agent_output) is read as it was, then carried on", () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-chunks-"));
  db = openDatabase(join(dir, "troupe.db"));
  migrateTo(db, 21);
  db.exec(AGENT);
  db.exec(SESSION(1));
  db.exec(`INSERT INTO agent_log_chunks (agent_id, session, stream, data, bytes, created_at) VALUES ('a1', 1, 'troupe', 'marker\n', 0, 1)`);
  db.exec(`INSERT INTO agent_log_chunks (agent_id, session, stream, data, bytes, created_at) VALUES ('a1', 1, 'stdout', 'kept\n', 5, 1)`);
  db.exec(`UPDATE agent_sessions SET stdout_offset = 25, stderr_offset = 7 WHERE agent_id = 'a1'`);
  db.exec(`INSERT INTO agent_output (agent_id, stored_bytes, dropped_bytes) VALUES ('a1', 5, 20)`);
  migrate(db);
  const chunks = new ChunkRepo(db);
  expect(db.query("SELECT appended_bytes, dropped_bytes FROM agent_output").get()).toEqual({ appended_bytes: 25, dropped_bytes: 20 });
  expect(chunks.offsets("a1", 1)).toEqual({ stdout: 25, stderr: 7 });
  expect(chunks.usage("a1")).toEqual({ stored: 5, dropped: 20 });
  expect(chunks.agentsOver(4)).toEqual(["a1"]);
  chunks.appendMany([piece(1, "stderr", "more\n", 12)]);
  const again = reopened();
  expect(again.offsets("a1", 1)).toEqual({ stdout: 25, stderr: 12 });
  expect(again.usage("a1")).toEqual({ stored: 10, dropped: 20 });
});

test("the oldest chunk holding a text gives when it was stored: a provider session began no later", () => {
  const chunks = fresh();
  const ids = [
    piece(1, "stdout", "starting\n", 9),
    piece(1, "stdout", '{"troupe":"session","sessionId":"s-123"}\n', 50),
    piece(1, "stdout", '{"acp":"send","msg":{"params":{"sessionId":"s-123"}}}\n', 106),
  ].map((p) => chunks.appendMany([p]).chunks[0]!.id);
  ids.forEach((id, i) => db.query("UPDATE agent_log_chunks SET created_at = ? WHERE id = ?").run(4000 + i * 1000, id));
  expect(chunks.firstStoredWith("a1", "s-123")).toBe(5000);
  expect(chunks.firstStoredWith("a1", "s-999")).toBeNull();
  expect(chunks.firstStoredWith("a2", "s-123")).toBeNull();
});
