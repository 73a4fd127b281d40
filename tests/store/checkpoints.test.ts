import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createStore, type Store } from "../../src/store/index.ts";
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

test("a writer that never pauses still gets its WAL started over: it stays bounded, and all of it reaches the database", async () => {
  const { s, path, size } = open();
  const insert = s.db.query("INSERT INTO blob (v) VALUES (?)");
  const piece = "y".repeat(64 * 1024);
  let maxWal = 0;
  for (let written = 0; written < 96 * MiB; ) {
    // the tailer's way: hold while a catch-up checkpoint runs
    if (s.checkpoints.holding) await new Promise<void>((r) => s.checkpoints.onRelease(r));
    s.db.transaction(() => {
      for (let i = 0; i < 8; i++) insert.run(piece);
    })();
    written += 8 * piece.length;
    s.checkpoints.wrote(8 * piece.length);
    maxWal = Math.max(maxWal, size(`${path}-wal`));
    await turn();
  }
  expect(maxWal).toBeLessThan(48 * MiB);
  await waitFor("everything to reach the database file", () => size(path) > 96 * MiB, 30_000);
});
