import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createStore, type Store } from "../../../src/store/index.ts";
import { migrateTo } from "../../../src/store/db.ts";
import { Tailer } from "../../../src/agents/output/tailer.ts";
import { Logger } from "../../../src/events/log.ts";
import type { SessionRecord } from "../../../src/store/sessions.ts";
import { waitFor } from "../../support/sandbox.ts";

const MiB = 1024 * 1024;
let dir: string;
let store: Store | null = null;
let tailer: Tailer | null = null;
afterEach(async () => {
  await tailer?.stop();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const AGENT_SQL = `INSERT INTO agents (id, name, provider, status, cwd, token_hash, signal_file, created_at, updated_at)
  VALUES ('a1', 'flood', 'generic', 'running', '/', 'h', '/s', 0, 0)`;

function session(logs: string): SessionRecord {
  store!.db.exec(
    `INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at)
     VALUES ('a1', 1, '${join(logs, "1.out")}', '${join(logs, "1.err")}', '${join(logs, "1.exit")}', 0)`,
  );
  return store!.sessions.get("a1", 1)!;
}

const block = (n: number, from: number) => Array.from({ length: n }, (_, i) => `${String(from + i).padStart(99, "0")}\n`).join("");

test("a raw file an agent still appends to gives back what is stored; nothing is lost or doubled, and its end empties it", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-tailer-"));
  const logs = join(dir, "logs", "flood");
  mkdirSync(logs, { recursive: true });
  store = createStore(join(dir, "troupe.db"), { warn: () => {} });
  store.db.exec(AGENT_SQL);
  const s = session(logs);
  // the agent's side: an O_APPEND descriptor held open throughout, as launch-detached.ts gives it
  const out = openSync(s.stdoutPath, "a");
  writeSync(out, block(30_000, 0)); // 3 MB: three times the cap
  tailer = new Tailer(store.chunks, () => {}, new Logger(join(dir, "daemon.log")), { capBytes: () => MiB });
  tailer.start();
  tailer.add(s);
  const offset = () => store!.chunks.offsets("a1", 1)!.stdout; // the newest chunk carries it (migration 22)
  await waitFor("the first 3 MB stored", () => offset() === 3_000_000);
  const st = statSync(s.stdoutPath);
  expect(st.size).toBe(3_000_000); // offsets stay valid for the writer and the store ...
  await waitFor("the stored part released", () => statSync(s.stdoutPath).blocks * 512 < 1.5 * MiB); // ... but the blocks are freed

  writeSync(out, block(10_000, 30_000)); // the writer carries on where it was
  await waitFor("the rest stored", () => offset() === 4_000_000);
  closeSync(out);
  await waitFor("the agent back under the cap", () => store!.chunks.usage("a1").stored <= MiB);
  const usage = store.chunks.usage("a1");
  expect(usage.stored + usage.dropped).toBe(4_000_000);
  const kept = store.chunks.list("a1", { after: 0 });
  expect(kept[0]!.data).toContain("of older output dropped (cap 1 MiB)");
  // troupe's own note, never the agent's stderr (issue 18)
  expect(kept[0]!.stream).toBe("troupe");
  expect(kept.slice(1).every((c) => c.stream === "stdout")).toBe(true);
  const numbers = kept.slice(1).map((c) => c.data).join("").trimEnd().split("\n").map(Number);
  expect(numbers[numbers.length - 1]).toBe(39_999);
  expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);

  await tailer.finish(store.sessions.get("a1", 1)!);
  expect(statSync(s.stdoutPath).size).toBe(0); // all of it is stored: the file is emptied
  expect(offset()).toBe(4_000_000);
});

test("a store written by the schema before the cap is migrated; an agent over the cap is cut down and the file shrinks", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-tailer-"));
  const path = join(dir, "troupe.db");
  // the schema as the previous troupe shipped it (migrations 1 and 2), 40 MiB of one agent's output
  const old = new Database(path, { create: true });
  old.exec("PRAGMA journal_mode = WAL");
  migrateTo(old, 2);
  old.exec(AGENT_SQL);
  const line = `${"y".repeat(1023)}\n`.repeat(1024);
  for (let i = 0; i < 40; i++) {
    old.query("INSERT INTO agent_log_chunks (agent_id, session, stream, data, created_at) VALUES ('a1', 1, 'stdout', ?, 0)").run(line);
  }
  old.close();

  store = createStore(path, { warn: () => {} });
  const pragma = (name: string) => Object.values(store!.db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0]!;
  expect(pragma("auto_vacuum")).toBe(2);
  expect(store.chunks.usage("a1")).toEqual({ stored: 40 * MiB, dropped: 0 });
  expect(pragma("page_count") * pragma("page_size")).toBeGreaterThan(40 * MiB);

  mkdirSync(join(dir, "logs"));
  tailer = new Tailer(store.chunks, () => {}, new Logger(join(dir, "daemon.log")), { capBytes: () => 4 * MiB });
  tailer.start();
  await waitFor("the agent under the cap", () => store!.chunks.usage("a1").stored <= 4 * MiB);
  await waitFor("the freed pages given back", () => pragma("freelist_count") === 0);
  expect(pragma("page_count") * pragma("page_size")).toBeLessThan(8 * MiB);
  const [marker, ...kept] = store.chunks.list("a1", { after: 0 });
  expect(marker!).toMatchObject({ stream: "troupe", data: `… ${40 - kept.length} MiB of older output dropped (cap 4 MiB)\n` });
  expect(kept.length).toBeGreaterThan(0);
});

test("a path followed for an agent that is gone is followed for the new one: its lines are stored as the new agent's", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-tailer-"));
  const logs = join(dir, "logs", "flood");
  mkdirSync(logs, { recursive: true });
  store = createStore(join(dir, "troupe.db"), { warn: () => {} });
  store.db.exec(AGENT_SQL);
  const old = session(logs);
  tailer = new Tailer(store.chunks, () => {}, new Logger(join(dir, "daemon.log")), { capBytes: () => MiB });
  tailer.start();
  tailer.add(old);
  writeSync(openSync(old.stdoutPath, "a"), "from the old agent\n");
  await waitFor("the old line stored", () => store!.chunks.list("a1", { after: 0 }).length === 1);
  // removed before its end was read; a new agent takes its name, so the same paths, in a new folder
  store.db.exec("DELETE FROM agents WHERE id = 'a1'");
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  store.db.exec(AGENT_SQL.replace("'a1'", "'a2'"));
  store.db.exec(
    `INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at)
     VALUES ('a2', 1, '${old.stdoutPath}', '${old.stderrPath}', '${old.exitPath}', 0)`,
  );
  tailer.add(store.sessions.get("a2", 1)!);
  const out = openSync(old.stdoutPath, "a");
  writeSync(out, "from the new agent\n");
  await waitFor("the new line stored as the new agent's", () => store!.chunks.list("a2", { after: 0 }).map((c) => c.data).join("") === "from the new agent\n");
  closeSync(out);
});

test("an agent forgotten as it is removed is read no more: the other agents' lines keep being stored", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-tailer-"));
  store = createStore(join(dir, "troupe.db"), { warn: () => {} });
  const sessionOf = (id: string) => {
    const logs = join(dir, "logs", id);
    mkdirSync(logs, { recursive: true });
    store!.db.exec(AGENT_SQL.replace("'a1', 'flood'", `'${id}', '${id}'`).replace("'h'", `'h-${id}'`));
    store!.db.exec(
      `INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at)
       VALUES ('${id}', 1, '${join(logs, "1.out")}', '${join(logs, "1.err")}', '${join(logs, "1.exit")}', 0)`,
    );
    return { logs, s: store!.sessions.get(id, 1)! };
  };
  const gone = sessionOf("gone");
  const kept = sessionOf("kept");
  const log = join(dir, "daemon.log");
  tailer = new Tailer(store.chunks, () => {}, new Logger(log), { capBytes: () => MiB });
  tailer.start();
  tailer.add(gone.s);
  tailer.add(kept.s);
  const goneOut = openSync(gone.s.stdoutPath, "a");
  writeSync(goneOut, "first\n");
  await waitFor("its first line stored", () => store!.chunks.list("gone", { after: 0 }).length === 1);
  // its last lines written, and the agent removed before they are read (as rm after a stop may)
  writeSync(goneOut, "last words\n");
  closeSync(goneOut);
  tailer.forgetAgent("gone");
  store.db.exec("DELETE FROM agents WHERE id = 'gone'");
  rmSync(gone.logs, { recursive: true, force: true });
  const keptOut = openSync(kept.s.stdoutPath, "a");
  for (let i = 0; i < 5; i++) {
    writeSync(keptOut, `kept ${i}\n`);
    await Bun.sleep(20);
  }
  closeSync(keptOut);
  await waitFor("the other agent's lines", () => store!.chunks.list("kept", { after: 0 }).map((c) => c.data).join("") === "kept 0\nkept 1\nkept 2\nkept 3\nkept 4\n");
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").not.toContain("storing output failed");
});
