import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, Sandbox, waitFor, type RunResult } from "../support/sandbox.ts";
import { readLockFile } from "../../src/lock-file.ts";
import type { Agent } from "../../src/protocol/entities.ts";

/** Issue 32, item 4: a client acts on the workspace it resolved, or on none, never on another. */
const sandboxes: Sandbox[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const f of folders) {
    // a daemon a failing run started in a plain folder: stopped before the folder goes
    const held = readLockFile(join(f, ".troupe"));
    if (held) safeKill(held.pid);
  }
  for (const s of sandboxes.splice(0).reverse()) {
    // a daemon on the default socket (the account test's) is not the one close() stops
    const held = readLockFile(join(s.dir, ".troupe"));
    if (held && held.socket !== s.socket) safeKill(held.pid);
    await s.close();
  }
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function safeKill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

const sandbox = (opts?: { git?: boolean; folder?: string }) => {
  const s = new Sandbox(opts);
  sandboxes.push(s);
  return s;
};

async function run(args: string[], cwd: string, env: Record<string, string>): Promise<RunResult> {
  const p = Bun.spawn([BIN, ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

test("an inherited TROUPE_SOCKET of workspace A with --workspace B is refused in one line, and nothing runs in A", async () => {
  const a = sandbox();
  const b = sandbox();
  expect((await a.run(["daemon", "start"])).code).toBe(0);
  // an agent of A (A's TROUPE_SOCKET and TROUPE_WORKSPACE in its environment) names B
  const r = await a.run(["spawn", "--workspace", b.dir, "--no-worktree", "--name", "lost", "--command", "true"]);
  expect(r.code).toBe(1);
  expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  expect(r.stderr).toContain(a.dir);
  expect(r.stderr).toContain(b.dir);
  expect(await a.json<Agent[]>(["ls", "--json"])).toEqual([]);
  // the same workspace by another path (a link to it) is the same workspace
  const link = join(a.runtime, "link");
  symlinkSync(a.dir, link);
  expect((await a.run(["ls", "--workspace", link])).code).toBe(0);
});

test("troupe account ls in a folder that is no workspace creates nothing there and starts no daemon", async () => {
  const plain = realpathSync(mkdtempSync(join(tmpdir(), "troupe-plain-")));
  folders.push(plain);
  const s = sandbox(); // its runtime folder, state and config stand in for the user's
  const env: Record<string, string> = { ...s.env, XDG_RUNTIME_DIR: s.runtime };
  delete env.TROUPE_SOCKET;
  delete env.TROUPE_WORKSPACE;
  const sockets = () => (existsSync(join(s.runtime, "troupe")) ? readdirSync(join(s.runtime, "troupe")).filter((n) => n.endsWith(".sock")) : []);
  const none = await run(["account", "ls"], plain, env);
  expect(existsSync(join(plain, ".troupe"))).toBe(false);
  expect(sockets()).toEqual([]);
  expect(none.code).toBe(1);
  expect(none.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  // with a workspace's daemon running, the user's accounts are read through it, from anywhere
  expect((await run(["account", "add", "--provider", "claude", "--token", "t0k", "--name", "mine"], s.dir, env)).code).toBe(0);
  expect(sockets()).toHaveLength(1);
  const listed = await run(["account", "ls"], plain, env);
  expect(listed.stdout).toContain("mine");
  expect(listed.code).toBe(0);
  expect(existsSync(join(plain, ".troupe"))).toBe(false);
  expect((await run(["daemon", "stop"], s.dir, env)).code).toBe(0);
});

test("a workspace whose path holds a backslash starts its daemon and runs an agent in its worktree", async () => {
  const s = sandbox({ folder: "back\\slash ws" });
  await s.json(["spawn", "--name", "bs", "--command", `troupe signal done --result "$(pwd)"`, "--json"]);
  const done = await waitFor(
    "the agent to end",
    async () => {
      const a = (await s.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "bs");
      return a && a.status !== "running" && a.status !== "starting" ? a : undefined;
    },
    60_000,
  );
  expect(done).toMatchObject({ status: "done", result: join(s.dir, ".troupe", "worktrees", "bs") });
});
