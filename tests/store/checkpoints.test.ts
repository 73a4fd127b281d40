import { afterEach, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createStore, type Store } from "../../src/store/index.ts";
import { WalCheckpoints } from "../../src/store/checkpoints.ts";
import { waitFor } from "../support/sandbox.ts";

const MiB = 1024 * 1024;
let dir: string;
let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

const open = () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-ck-"));
  const path = join(dir, "troupe.db");
  store = createStore(path, { warn: (m) => { throw new Error(m); } });
  store.db.exec("CREATE TABLE blob (v TEXT)");
  return { s: store, path, size: (f: string) => statSync(f).size };
};
const turn = () => new Promise<void>((r) => setImmediate(r));

test("a small write is copied into the database soon after, with nothing else happening", async () => {
  const { s, path, size } = open();
  const before = size(path);
  s.db.query("INSERT INTO blob (v) VALUES (?)").run("x".repeat(512 * 1024));
  s.checkpoints.wrote();
  await waitFor("the write to reach the database file", () => size(path) > before + 500 * 1024, 10_000);
});

test("a writer that never pauses still gets its WAL started over, again and again, and all of it reaches the database", async () => {
  const { s, path, size } = open();
  const insert = s.db.query("INSERT INTO blob (v) VALUES (?)");
  const piece = "y".repeat(64 * 1024);
  // the WAL header's checkpoint sequence number goes up each time the WAL starts over
  const header = Buffer.alloc(16);
  const restarts = () => {
    const fd = openSync(`${path}-wal`, "r");
    try {
      readSync(fd, header, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
    return header.readUInt32BE(12);
  };
  let written = 0;
  const deadline = Date.now() + 60_000;
  while (restarts() < 3 && Date.now() < deadline) {
    // the tailer's way: hold while a catch-up checkpoint runs
    if (s.checkpoints.holding) await new Promise<void>((r) => s.checkpoints.onRelease(r));
    s.db.transaction(() => {
      for (let i = 0; i < 8; i++) insert.run(piece);
    })();
    written += 8 * piece.length;
    s.checkpoints.wrote(8 * piece.length);
    await turn();
  }
  expect(restarts()).toBeGreaterThanOrEqual(3);
  await waitFor("everything to reach the database file", () => size(path) > written, 30_000);
}, 120_000);

test("a checkpoint worker that fails is reported once and the checkpoints go on inline", async () => {
  const { s, path, size } = open();
  const warned: string[] = [];
  let asked = 0;
  const failing = { checkpoint: () => (asked++, Promise.reject(new Error("no threads here"))), close: () => {} };
  const ck = new WalCheckpoints(s.db, failing, (err) => warned.push(String(err)));
  s.db.query("INSERT INTO blob (v) VALUES (?)").run("z".repeat(512 * 1024));
  const before = size(path);
  ck.wrote(8 * MiB);
  await waitFor("the warning", () => warned.length === 1, 5_000);
  s.db.query("INSERT INTO blob (v) VALUES (?)").run("z".repeat(512 * 1024));
  ck.wrote(8 * MiB);
  await waitFor("the writes to reach the database file", () => size(path) > before + 1000 * 1024, 5_000);
  expect(asked).toBe(1);
  expect(warned).toHaveLength(1);
  ck.stop();
});

test("truncate empties the WAL once the worker's checkpoint is done: a deleted row is in no file of the store", async () => {
  const { s, path, size } = open();
  const secret = `secret-${crypto.randomUUID()}`;
  s.db.query("INSERT INTO blob (v) VALUES (?)").run(secret.repeat(1000));
  s.checkpoints.wrote(64 * 1024 * 1024); // a checkpoint on the worker starts at once
  s.db.query("DELETE FROM blob").run();
  expect(await s.checkpoints.truncate()).toBe(true);
  expect(size(`${path}-wal`)).toBe(0);
  for (const f of [path, `${path}-wal`]) expect(readFileSync(f).toString("latin1").includes(secret)).toBe(false);
});
