/**
 * The runtime contract (src/runtime/contract.ts) as tests, one file for every adapter: `bun test`
 * runs it against src/runtime/bun/, `deno test` (npm run test:deno-contract) against
 * src/runtime/deno/, as Hono runs one set of runtime tests per adapter. Hence node:test and
 * node:assert, which both runtimes provide, and nothing of either runtime's own API.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { openDatabase } from "../../src/runtime/sqlite.ts";
import { startCheckpointer } from "../../src/runtime/checkpointer.ts";
import { serveUnix, unixFetch } from "../../src/runtime/serve.ts";
import { tryLock } from "../../src/runtime/flock.ts";
import { punchHole } from "../../src/runtime/punch-hole.ts";
import { startExitWatcher } from "../../src/runtime/exit-watch.ts";
import { watchDir, type DirEvent } from "../../src/runtime/watch.ts";
import { gc, runtime, selfCommand, shrink, sleep, which } from "../../src/runtime/process.ts";
import { stringWidth } from "../../src/runtime/string-width.ts";
import { sha256Hex } from "../../src/runtime/hash.ts";
import { program } from "../../src/runtime/program.ts";

const RUNNING: "bun" | "deno" = "Deno" in globalThis ? "deno" : "bun";
const dir = mkdtempSync("/tmp/tr-rt-");
after(() => rmSync(dir, { recursive: true, force: true }));

describe(`runtime adapter (${RUNNING})`, () => {
  test("the adapter is the running runtime's, and names it", () => {
    assert.equal(runtime.name, RUNNING);
    assert.match(runtime.version, /^\d+\.\d+\.\d+/);
  });

  test("sqlite: numbered and positional parameters, booleans, get/all/run/iterate, transactions roll back on a throw, nested ones to their savepoint", () => {
    const db = openDatabase(join(dir, "t.db"));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    assert.equal(db.query("INSERT INTO t (v) VALUES (?)").run("a").changes, 1);
    db.query("INSERT INTO t (v) VALUES (?1), (?1 || ?2)").run("b", "c");
    assert.deepEqual({ ...(db.query("SELECT v FROM t WHERE id = ?").get(2) as object) }, { v: "b" });
    assert.equal(db.query("SELECT v FROM t WHERE id = ?").get(99), null);
    assert.deepEqual(db.query("SELECT v FROM t ORDER BY id").all().map((r) => ({ ...(r as object) })), [{ v: "a" }, { v: "b" }, { v: "bc" }]);
    assert.deepEqual({ ...(db.query("SELECT ? AS yes, ? AS no").get(true, false) as object) }, { yes: 1, no: 0 });
    const seen: unknown[] = [];
    for (const row of db.query("SELECT id FROM t ORDER BY id").iterate()) {
      seen.push({ ...(row as object) });
      if (seen.length === 2) break;
    }
    assert.deepEqual(seen, [{ id: 1 }, { id: 2 }]);
    const failing = db.transaction((v: string) => {
      db.query("INSERT INTO t (v) VALUES (?)").run(v);
      throw new Error("no");
    });
    assert.throws(() => failing("d"), /no/);
    const count = () => (db.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n;
    assert.equal(count(), 3);
    const outer = db.transaction(() => {
      db.query("INSERT INTO t (v) VALUES (?)").run("kept");
      assert.throws(() => failing("dropped"), /no/);
      return count();
    });
    assert.equal(outer(), 4);
    assert.equal(count(), 4);
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
    assert.equal(r.busy, false);
    assert.ok(r.log > 100, `log ${r.log}`);
    assert.ok(r.checkpointed > 100, `checkpointed ${r.checkpointed}`);
    const again = await ck.checkpoint();
    assert.equal(again.checkpointed, again.log);
    ck.close();
    await assert.rejects(ck.checkpoint(), /closed/);
    db.close();
    // what was checkpointed is in the database file itself; the worker's connection closes on its
    // own thread after close() (the last one to close checkpoints under an exclusive lock), so the
    // reader waits for locks as the store's connections do (src/store/db.ts), instead of SQLITE_BUSY
    const reader = openDatabase(path);
    reader.exec("PRAGMA busy_timeout = 5000");
    assert.equal((reader.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n, 110);
    reader.close();
  });

  test("serve: HTTP on a Unix socket, streamed bytes, a request's signal aborted when its client goes away, no daemon as ENOENT", async () => {
    const socket = join(dir, "s.sock");
    let gone!: () => void;
    const clientGone = new Promise<void>((r) => (gone = r));
    const server = serveUnix({
      socket,
      fetch: (req) => {
        if (new URL(req.url).pathname !== "/stream") return Response.json({ method: req.method });
        req.signal.addEventListener("abort", () => gone());
        return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("a")) }), { headers: { "content-type": "text/event-stream" } });
      },
      error: () => new Response("error", { status: 500 }),
    });
    try {
      assert.deepEqual(await (await unixFetch(socket, "http://x/plain", { method: "POST", body: "x" })).json(), { method: "POST" });
      const abort = new AbortController();
      const stream = await unixFetch(socket, "http://x/stream", { signal: abort.signal });
      const reader = stream.body!.getReader();
      assert.equal(new TextDecoder().decode((await reader.read()).value), "a");
      abort.abort();
      await clientGone;
    } finally {
      server.stop(true);
    }
    // the client tells "nobody there" (safe to start a daemon and retry) by these codes
    const missing = await unixFetch(join(dir, "none.sock"), "http://x/").catch((e: unknown) => e);
    assert.equal((missing as { code?: string }).code === "ENOENT" || (missing as { code?: string }).code === "FailedToOpenSocket", true, String(missing));
  });

  test("fetch: aborting a request's signal ends its streamed body, also after a garbage collection (Deno's own abort is lost to one)", async () => {
    const socket = join(dir, "abort.sock");
    const enc = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const server = serveUnix({
      socket,
      fetch: () =>
        new Response(
          new ReadableStream({
            start: (c) => {
              timer = setInterval(() => c.enqueue(enc.encode("tick\n")), 20);
            },
            cancel: () => clearInterval(timer),
          }),
        ),
      error: () => new Response("error", { status: 500 }),
    });
    try {
      for (const collect of [false, true]) {
        const abort = new AbortController();
        const reader = (await unixFetch(socket, "http://x/", { signal: abort.signal })).body!.getReader();
        assert.equal(new TextDecoder().decode((await reader.read()).value), "tick\n");
        if (collect) for (let i = 0; i < 3; i++) (gc(), await sleep(10));
        abort.abort();
        // reads until the body ends (or rejects, as it does on Bun); on a body that streams on, it gives up after 3 s
        let reads = 0;
        const ended = (async () => {
          try {
            while (!(await reader.read()).done) if (++reads > 150) return false;
          } catch {
            // ended by the abort
          }
          return true;
        })();
        assert.equal(await ended, true, `the body streamed on after abort() (${collect ? "after a gc" : "no gc"})`);
      }
    } finally {
      clearInterval(timer);
      server.stop(true);
    }
  });

  test("serve: a server stopped after its socket was deleted leaves the next server's socket alone; a stopped server's socket is gone", async () => {
    const socket = join(dir, "again.sock");
    const error = () => new Response("error", { status: 500 });
    const first = serveUnix({ socket, fetch: () => new Response("first"), error });
    rmSync(socket); // a tmp cleaner, a careless rm: the daemon listens again (src/daemon/server.ts)
    first.stop(false);
    const second = serveUnix({ socket, fetch: () => new Response("second"), error });
    await sleep(200); // the first server's close, wherever it happens
    assert.equal(await (await unixFetch(socket, "http://x/")).text(), "second");
    second.stop(true);
    await sleep(200);
    assert.equal(existsSync(socket), false);
  });

  test("lock: a second taker is refused while the first holds it, and so is any process's flock(2) on the file", async () => {
    const path = join(dir, "lock");
    const a = tryLock(path);
    assert.ok(a);
    assert.equal(tryLock(path), null);
    a.release();
    const b = tryLock(path);
    assert.ok(b);
    // another process (util-linux flock, as the other runtime's adapter takes it) is refused while we hold it...
    assert.equal(spawnSync("flock", ["-n", path, "true"]).status, 1);
    b.release();
    // ...and holds it against us while it runs
    const holder = spawn("flock", [path, "sleep", "30"], { stdio: "ignore" });
    const refused = async () => {
      for (let i = 0; i < 500; i++) {
        const mine = tryLock(path);
        if (!mine) return true;
        mine.release(); // flock has not taken it yet
        await sleep(10);
      }
      return false;
    };
    try {
      assert.ok(await refused());
    } finally {
      holder.kill("SIGKILL");
    }
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  test("punchHole: frees the blocks of a range, size and the rest unchanged; a missing file throws", () => {
    const path = join(dir, "holes");
    const MiB = 1024 * 1024;
    writeFileSync(path, Buffer.alloc(4 * MiB, "x"));
    const before = statSync(path).blocks;
    // false only where the system or file system cannot (Linux's tmpfs, ext4, xfs, btrfs can)
    assert.equal(punchHole(path, 0, 2 * MiB), process.platform === "linux");
    if (process.platform === "linux") {
      assert.ok(statSync(path).blocks < before, "blocks freed");
      const text = readFileSync(path);
      assert.equal(text.length, 4 * MiB);
      assert.equal(text[0], 0);
      assert.equal(text[3 * MiB], "x".charCodeAt(0));
    }
    assert.throws(() => punchHole(join(dir, "no-such-file"), 0, 4096));
  });

  test("process: which, sleep, gc, the command that runs this troupe again, terminal width", async () => {
    assert.match(which("sh", process.env.PATH ?? "") ?? "", /\/sh$/);
    assert.equal(which("no-such-binary-troupe", process.env.PATH ?? ""), null);
    const t0 = Date.now();
    await sleep(20);
    assert.ok(Date.now() - t0 >= 15);
    gc();
    const self = selfCommand();
    assert.ok(self.length >= 1 && isAbsolute(self[0]!) && existsSync(self[0]!), self.join(" "));
    assert.equal(stringWidth("ab"), 2);
    assert.equal(stringWidth("日本"), 4);
  });

  test("program: its command line, environment, folder, ids and platform, as Node's process has them", () => {
    assert.deepEqual(program.args(), process.argv.slice(2));
    assert.equal(program.env("PATH"), process.env.PATH);
    assert.equal(program.env("TROUPE_NO_SUCH_VARIABLE"), undefined);
    assert.equal(program.cwd(), process.cwd());
    assert.equal(program.pid(), process.pid);
    assert.equal(program.uid(), process.getuid?.());
    assert.equal(program.platform(), `${process.platform}-${process.arch}`);
  });

  test("program: exit runs the exit listeners once Node's process was read, and ends with the code either way", () => {
    const script = join(dir, "exit.ts");
    // the adapter itself: a script outside the project has no package.json to resolve #runtime/ by
    const src = new URL(`../../src/runtime/${RUNNING}/program.ts`, import.meta.url).pathname;
    writeFileSync(
      script,
      `import { program } from ${JSON.stringify(src)};\n` +
        `if (program.args()[0] === "listen") process.on("exit", (code) => console.log("listener saw " + code));\n` +
        `program.exit(3);\nconsole.log("went on");\n`,
    );
    const argv = RUNNING === "deno" ? ["run", "-A", "--no-check", script] : [script];
    for (const [arg, out] of [["listen", "listener saw 3\n"], ["quiet", ""]] as const) {
      const r = spawnSync(process.execPath, [...argv, arg], { encoding: "utf8", cwd: join(import.meta.dirname, "../..") });
      assert.equal(r.stdout, out, r.stderr);
      assert.equal(r.status, 3);
    }
  });

  test("process: shrink collects the garbage once the task returns, and code still runs after it", async () => {
    const square = (n: number) => n * n;
    gc();
    const without = process.memoryUsage().heapUsed;
    // made in a frame of its own, so no slot of this one keeps it alive for a conservative stack scan
    const withIt = (() => {
      const garbage = Array.from({ length: 200_000 }, (_, i) => `line ${i} `.repeat(8));
      assert.equal(garbage.length, 200_000);
      return process.memoryUsage().heapUsed;
    })();
    // most of what the garbage took is back (the heap's own size differs by runtime); a collection
    // under load may wait for the next idle moment, so shrink is asked again a few times
    let left = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 20 && !(left < (withIt - without) / 2); i++) {
      shrink();
      await sleep(10 + i * 10);
      left = process.memoryUsage().heapUsed - without;
    }
    assert.ok(left < (withIt - without) / 2, `${left} of ${withIt - without} bytes left`);
    assert.equal(square(12), 144);
  });

  test("hash: SHA-256 as hex, the same as node:crypto's (socket paths of running daemons depend on it)", () => {
    assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(sha256Hex("/home/me/repo-é"), createHash("sha256").update("/home/me/repo-é").digest("hex"));
  });

  test("watchDir: an entry created, written and deleted by name; a FIFO made there blocks nothing; the folder's removal ends the watch", async () => {
    const folder = join(dir, "watched");
    mkdirSync(folder);
    const seen: [DirEvent, string | null][] = [];
    let failed: Error | null = null;
    const until = async (what: string, ok: () => boolean) => {
      for (let i = 0; i < 500 && !ok(); i++) await sleep(10);
      assert.ok(ok(), `${what}: ${JSON.stringify(seen)}`);
    };
    const w = watchDir(folder, (event, name) => seen.push([event, name]), (err) => (failed = err));
    const has = (event: DirEvent, name: string) => seen.some(([e, n]) => e === event && n === name);
    try {
      writeFileSync(join(folder, "a.out"), "x");
      await until("a.out created", () => has("rename", "a.out"));
      appendFileSync(join(folder, "a.out"), "y");
      await until("a.out written", () => has("change", "a.out"));
      // a FIFO nobody writes: opening it would block until a writer came (Deno's own watcher does)
      assert.equal(spawnSync("mkfifo", [join(folder, "pipe")]).status, 0);
      await until("the FIFO created", () => has("rename", "pipe"));
      const other = mkdtempSync(join(dir, "other-"));
      const second = watchDir(other, () => {}, () => {}); // hung here on Deno's fs.watch
      second.close();
      rmSync(join(folder, "a.out"));
      await until("a.out deleted", () => seen.filter(([e, n]) => e === "rename" && n === "a.out").length >= 2);
      rmSync(folder, { recursive: true });
      await until("the folder's removal reported", () => failed !== null || has("rename", "watched"));
    } finally {
      w.close();
    }
    assert.throws(() => watchDir(join(dir, "no-such-folder"), () => {}, () => {}));
  });

  test("watchDir: a folder whose path holds a backslash (git takes it) is watched, its removal reported by its own name", async () => {
    const folder = join(dir, "back\\slash");
    mkdirSync(folder);
    const seen: [DirEvent, string | null][] = [];
    let failed: Error | null = null;
    const w = watchDir(folder, (event, name) => seen.push([event, name]), (err) => (failed = err));
    const until = async (what: string, ok: () => boolean) => {
      for (let i = 0; i < 500 && !ok(); i++) await sleep(10);
      assert.ok(ok(), `${what}: ${JSON.stringify(seen)}`);
    };
    try {
      writeFileSync(join(folder, "a.out"), "x");
      await until("a.out created", () => seen.some(([e, n]) => e === "rename" && n === "a.out"));
      rmSync(folder, { recursive: true });
      await until("the folder's removal reported", () => failed !== null || seen.some(([e, n]) => e === "rename" && n === "back\\slash"));
    } finally {
      w.close();
    }
  });

  test("exit watcher: a process that is not our child is reported once when it ends; a reaped pid is gone", async () => {
    // a grandchild, orphaned at once: only a kernel notification (or polling) can tell its end
    const out = spawnSync("sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" });
    const pid = Number(out.stdout.trim());
    const seen: number[] = [];
    let ended!: () => void;
    const reported = new Promise<void>((r) => (ended = r));
    const w = startExitWatcher((p) => {
      seen.push(p);
      ended();
    });
    try {
      assert.equal(w.watch(pid), "watching");
      process.kill(pid, "SIGKILL");
      await Promise.race([reported, sleep(10_000)]);
      assert.deepEqual(seen, [pid]);
      // a child already reaped: no such process any more (an orphan may linger as a zombie)
      assert.equal(w.watch(spawnSync("true").pid!), "gone");
    } finally {
      w.close();
    }
  });
});
