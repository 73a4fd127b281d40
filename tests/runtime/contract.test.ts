import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { openDatabase } from "../../src/runtime/sqlite.ts";
import { startCheckpointer } from "../../src/runtime/checkpointer.ts";
import { serveUnix, unixFetch } from "../../src/runtime/serve.ts";
import { tryLockFd } from "../../src/runtime/flock.ts";
import { startExitWatcher } from "../../src/runtime/exit-watch.ts";
import { gc, mainScript, shrink, sleep, stringWidth, which } from "../../src/runtime/process.ts";
import { sha256Hex } from "../../src/runtime/hash.ts";

// The runtime contract (src/runtime/contract.ts) as tests: every adapter must pass these.
const dir = mkdtempSync("/tmp/tr-rt-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("runtime adapter", () => {
  test("sqlite: numbered and positional parameters, get/all/run/iterate, transactions roll back on a throw", () => {
    const db = openDatabase(join(dir, "t.db"));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    expect(db.query("INSERT INTO t (v) VALUES (?)").run("a").changes).toBe(1);
    db.query("INSERT INTO t (v) VALUES (?1), (?1 || ?2)").run("b", "c");
    expect(db.query("SELECT v FROM t WHERE id = ?").get(2)).toEqual({ v: "b" });
    expect(db.query("SELECT v FROM t WHERE id = ?").get(99)).toBeNull();
    expect(db.query("SELECT v FROM t ORDER BY id").all()).toEqual([{ v: "a" }, { v: "b" }, { v: "bc" }]);
    const seen: unknown[] = [];
    for (const row of db.query("SELECT id FROM t ORDER BY id").iterate()) {
      seen.push(row);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([{ id: 1 }, { id: 2 }]);
    const failing = db.transaction((v: string) => {
      db.query("INSERT INTO t (v) VALUES (?)").run(v);
      throw new Error("no");
    });
    expect(() => failing("d")).toThrow("no");
    expect(db.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 3 });
    db.close();
  });

  test("checkpointer: copies the WAL into the database from another thread while this connection writes on", async () => {
    const path = join(dir, "wal.db");
    const db = openDatabase(path);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA wal_autocheckpoint = 0");
    db.exec("CREATE TABLE t (v TEXT)");
    const insert = db.query("INSERT INTO t (v) VALUES (?)");
    for (let i = 0; i < 100; i++) insert.run("x".repeat(4000));
    const ck = startCheckpointer(path);
    const first = ck.checkpoint();
    // writers are not held meanwhile
    for (let i = 0; i < 10; i++) insert.run("y");
    const r = await first;
    expect(r.busy).toBe(false);
    expect(r.log).toBeGreaterThan(100);
    expect(r.checkpointed).toBeGreaterThan(100);
    const again = await ck.checkpoint();
    expect(again.checkpointed).toBe(again.log);
    ck.close();
    await expect(ck.checkpoint()).rejects.toThrow("closed");
    db.close();
    // what was checkpointed is in the database file itself; the worker's connection closes on its
    // own thread after close() (the last one to close checkpoints under an exclusive lock), so the
    // reader waits for locks as the store's connections do (src/store/db.ts), instead of SQLITE_BUSY
    const reader = openDatabase(path);
    reader.exec("PRAGMA busy_timeout = 5000");
    expect(reader.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 110 });
    reader.close();
  });

  test("serve: HTTP on a Unix socket, streamed responses, and a request's signal aborted when its client goes away", async () => {
    const socket = join(dir, "s.sock");
    let gone!: () => void;
    const clientGone = new Promise<void>((r) => (gone = r));
    const server = serveUnix({
      socket,
      fetch: (req) => {
        if (new URL(req.url).pathname !== "/stream") return Response.json({ method: req.method });
        req.signal.addEventListener("abort", () => gone());
        return new Response(new ReadableStream({ start: (c) => c.enqueue("a") }), { headers: { "content-type": "text/event-stream" } });
      },
      error: () => new Response("error", { status: 500 }),
    });
    try {
      expect(await (await unixFetch(socket, "http://x/plain", { method: "POST", body: "x" })).json()).toEqual({ method: "POST" });
      const abort = new AbortController();
      const stream = await unixFetch(socket, "http://x/stream", { signal: abort.signal });
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("a");
      abort.abort();
      await clientGone;
    } finally {
      server.stop(true);
    }
  });

  test("flock: a second open of the lock file cannot take it while the first holds it", () => {
    const path = join(dir, "lock");
    const a = openSync(path, "a+");
    const b = openSync(path, "a+");
    expect(tryLockFd(a)).toBe(true);
    expect(tryLockFd(b)).toBe(false);
    closeSync(a);
    expect(tryLockFd(b)).toBe(true);
    closeSync(b);
  });

  test("process: which, sleep, gc, the entry script, terminal width", async () => {
    expect(which("sh", process.env.PATH ?? "")).toMatch(/\/sh$/);
    expect(which("no-such-binary-troupe", process.env.PATH ?? "")).toBeNull();
    const t0 = Date.now();
    await sleep(20);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
    gc();
    expect(mainScript()).toBeString();
    expect(stringWidth("ab")).toBe(2);
    expect(stringWidth("日本")).toBe(4);
  });
  test("process: shrink collects the garbage once the task returns, and code still runs after it", async () => {
    const square = (n: number) => n * n;
    let garbage: string[] | null = Array.from({ length: 200_000 }, (_, i) => `line ${i} `.repeat(8));
    const withIt = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(200_000);
    garbage = null;
    shrink();
    await sleep(0);
    expect(process.memoryUsage().heapUsed).toBeLessThan(withIt / 2);
    expect(square(12)).toBe(144);
  });
  test("hash: SHA-256 as hex, the same as node:crypto's (socket paths of running daemons depend on it)", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("/home/me/repo-é")).toBe(createHash("sha256").update("/home/me/repo-é").digest("hex"));
  });
  test("exit watcher: a process that is not our child is reported once when it ends; a reaped pid is gone", async () => {
    // a grandchild, orphaned at once: only a kernel notification (or polling) can tell its end
    const out = Bun.spawnSync(["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"]);
    const pid = Number(out.stdout.toString().trim());
    const seen: number[] = [];
    let ended!: () => void;
    const reported = new Promise<void>((r) => (ended = r));
    const w = startExitWatcher((p) => {
      seen.push(p);
      ended();
    });
    try {
      expect(w.watch(pid)).toBe("watching");
      process.kill(pid, "SIGKILL");
      await Promise.race([reported, sleep(10_000)]);
      expect(seen).toEqual([pid]);
      // a child already reaped: no such process any more (an orphan may linger as a zombie)
      expect(w.watch(Bun.spawnSync(["true"]).pid)).toBe("gone");
    } finally {
      w.close();
    }
  });
});
