import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("ten clients starting at the same instant leave exactly one daemon", async () => {
  sb = new Sandbox();
  const runs = await Promise.all(Array.from({ length: 10 }, () => sb.run(["ls", "--json"])));
  for (const r of runs) {
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  }
  const log = readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8");
  const serving = log.split("\n").filter((l) => l.includes(" serving "));
  expect(serving).toHaveLength(1);
  const pid = await sb.daemonPid();
  expect(serving[0]).toContain(`daemon ${pid} serving`);
  // every process that lost the race exits (some may still be starting when the clients return)
  const daemons = () => Bun.spawnSync(["pgrep", "-f", `daemon run --workspace ${sb.dir}$`]).stdout.toString().trim().split("\n").filter(Boolean);
  await waitFor("the losing daemons to exit", () => daemons().length === 1);
  expect(daemons()).toEqual([String(pid)]);
  const log2 = readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8");
  expect(log2.split("\n").filter((l) => l.includes(" serving "))).toHaveLength(1);
});

test("a daemon whose store cannot open stops what it started and exits with one line naming the part", async () => {
  sb = new Sandbox();
  const db = join(sb.dir, ".troupe", "troupe.db");
  mkdirSync(db, { recursive: true });
  const r = await sb.run(["daemon", "run"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^troupe: the daemon could not start \(store\): cannot open the store: [^\n]+\n$/);
  expect(existsSync(sb.socket)).toBe(false);
  expect(readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8")).toContain("the daemon could not start (store)");
  rmSync(db, { recursive: true });
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
});

test("the daemon keeps its state out of git through .git/info/exclude, not .gitignore; profiles and config can be committed", async () => {
  sb = new Sandbox();
  // a repository troupe used before: its old whole-folder line is rewritten
  writeFileSync(join(sb.dir, ".git", "info", "exclude"), "# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n.troupe/\n");
  await sb.run(["daemon", "start"]);
  const exclude = () => readFileSync(join(sb.dir, ".git", "info", "exclude"), "utf8");
  expect(exclude()).toBe("# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n.troupe/*\n!.troupe/profiles/\n!.troupe/config.json\n");
  expect(sb.git("status", "--porcelain")).toBe("");
  mkdirSync(join(sb.dir, ".troupe", "profiles"));
  writeFileSync(join(sb.dir, ".troupe", "profiles", "reviewer.md"), "---\nprovider: claude\n---\nreview\n");
  writeFileSync(join(sb.dir, ".troupe", "config.json"), "{}\n");
  expect(sb.git("status", "--porcelain", "-uall").trim().split("\n").sort()).toEqual(["?? .troupe/config.json", "?? .troupe/profiles/reviewer.md"]);
  await sb.run(["daemon", "stop"]);
  await sb.run(["daemon", "start"]);
  expect(exclude().match(/\.troupe/g)).toHaveLength(3);
});

test("daemon start / status / stop report what they did", async () => {
  sb = new Sandbox();
  const stopped = await sb.run(["daemon", "status"]);
  expect(stopped.code).toBe(1);
  expect(stopped.stdout).toContain("no daemon serves");
  const started = await sb.run(["daemon", "start"]);
  expect(started.stdout).toMatch(/^daemon \d+ serves /);
  const status = JSON.parse((await sb.run(["daemon", "status", "--json"])).stdout);
  expect(status).toMatchObject({ running: true, workspace: sb.dir, socket: sb.socket });
  expect((await sb.run(["daemon", "stop"])).stdout).toMatch(/^daemon \d+ stopped; agents keep running/);
  expect((await sb.run(["daemon", "stop"])).stdout).toBe("no daemon running\n");
});

test("a client on another socket than the workspace's daemon is told where that daemon listens", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  const other = `${sb.runtime}/other.sock`;
  const r = await sb.run(["ls"], { env: { TROUPE_SOCKET: other } });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(`troupe: a daemon already serves ${sb.dir} on another socket (${sb.socket}); set TROUPE_SOCKET to it or stop it\n`);
}, 30_000);
