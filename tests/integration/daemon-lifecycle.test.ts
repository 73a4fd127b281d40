import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor, type RunResult } from "../support/sandbox.ts";

interface AgentJson {
  name: string;
  status: string;
  pid: number | null;
}

let sb: Sandbox;
afterEach(async () => {
  mkdirSync(sb.dir, { recursive: true }); // a test may have deleted it
  await sb.close();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs troupe with the sandbox's environment minus `drop`, plus `env`. */
async function runWith(args: string[], env: Record<string, string>, drop: string[] = []): Promise<RunResult> {
  const base = Object.fromEntries(Object.entries(sb.env).filter(([k]) => !drop.includes(k)));
  const p = Bun.spawn([BIN, ...args], { cwd: "/", env: { ...base, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

test("a client without TROUPE_SOCKET follows the socket the workspace's daemon wrote in its lock file", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]); // on the sandbox's own socket, as an agent's or a script's TROUPE_SOCKET would
  const pid = await sb.daemonPid();
  // the default socket path lives in XDG_RUNTIME_DIR: the sandbox's, not the user's
  const r = await runWith(["daemon", "status", "--json"], { XDG_RUNTIME_DIR: sb.runtime }, ["TROUPE_SOCKET"]);
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toMatchObject({ running: true, pid, socket: sb.socket });
  const ls = await runWith(["ls", "--json"], { XDG_RUNTIME_DIR: sb.runtime }, ["TROUPE_SOCKET"]);
  expect(ls).toMatchObject({ code: 0, stderr: "" });
  expect(await sb.daemonPid()).toBe(pid);
});

test("a daemon exits when its workspace folder is deleted, and a client there does not bring the folder back", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  const pid = (await sb.daemonPid())!;
  rmSync(sb.dir, { recursive: true, force: true });
  await waitFor("the daemon to exit", () => !alive(pid));
  expect(existsSync(sb.socket)).toBe(false);
  const r = await runWith(["ask", "still there?", "--user"], {});
  expect(r.code).not.toBe(0);
  expect(r.stderr).toBe(`troupe: the workspace folder ${sb.dir} no longer exists\n`);
  expect(existsSync(sb.dir)).toBe(false);
});

test("an idle daemon exits; a live agent or a connected client keeps it up; the next client starts it again", async () => {
  sb = new Sandbox();
  const env = { TROUPE_IDLE_EXIT_MS: "1000" };
  await sb.run(["daemon", "start"], { env });
  const first = (await sb.daemonPid())!;
  await waitFor("the idle daemon to exit", () => !alive(first), 10_000);

  await sb.json(["spawn", "--no-worktree", "--name", "idler", "--command", "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result ok", "--json"], { env });
  const second = (await sb.daemonPid())!;
  // several idle periods pass while the agent lives
  const t0 = Date.now();
  await waitFor("three idle periods", () => Date.now() - t0 > 3_000, 5_000);
  expect(alive(second)).toBe(true);

  // a connected client (an event stream) holds it too, after the agent is done
  const abort = new AbortController();
  const events = await fetch("http://troupe/v1/events", { unix: sb.socket, signal: abort.signal });
  expect(events.status).toBe(200);
  // read the stream as a dashboard does: a Bun fetch whose body nobody reads may let its connection go
  const reader = events.body!.getReader();
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  writeFileSync(join(sb.dir, "go"), "");
  await waitFor("the agent done", async () => (await sb.json<AgentJson[]>(["ls", "--json"], { env }))[0]?.status === "done");
  const t1 = Date.now();
  await waitFor("three idle periods", () => Date.now() - t1 > 3_000, 5_000);
  expect(alive(second)).toBe(true);
  abort.abort();
  await waitFor("the daemon to exit once the client left", () => !alive(second), 10_000);
  expect((await sb.run(["ls", "--json"])).code).toBe(0);
}, 40_000);

test("a deleted socket file is put back by the daemon; a daemon that cannot says what the client found", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  const pid = (await sb.daemonPid())!;
  rmSync(sb.socket);
  await waitFor("the socket back", () => existsSync(sb.socket), 5_000);
  const r = await sb.run(["ls", "--json"]);
  expect(r).toMatchObject({ code: 0, stderr: "" });
  expect(await sb.daemonPid()).toBe(pid);

  // a daemon that cannot react (stopped here) keeps the lock: the client names the holder and the missing socket
  process.kill(pid, "SIGSTOP");
  try {
    rmSync(sb.socket);
    const stuck = await sb.run(["ls"]);
    expect(stuck.code).not.toBe(0);
    expect(stuck.stderr).toBe(`troupe: daemon ${pid} holds ${join(sb.dir, ".troupe", "daemon.lock")} but its socket ${sb.socket} is missing; stop it (kill ${pid}) and try again\n`);
  } finally {
    process.kill(pid, "SIGCONT");
  }
  await waitFor("the socket back after the daemon resumes", () => existsSync(sb.socket), 5_000);
}, 30_000);

test("a FIFO made in the workspace hangs nothing: agents start (a new folder watched) and the daemon answers", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  // nobody ever writes to these: whoever opens one for reading waits forever (Deno's fs.watch did)
  Bun.spawnSync(["mkfifo", join(sb.dir, "pipe-in-the-workspace")]);
  // an agent that makes one too, as a build tool might
  await sb.json(["spawn", "--no-worktree", "--name", "piper", "--command", "mkfifo pipe-of-an-agent; troupe signal done --result ok", "--json"]);
  await waitFor("piper done", async () => (await sb.json<AgentJson[]>(["ls", "--json"])).find((a) => a.name === "piper")?.status === "done", 20_000);
  await sb.json(["spawn", "--no-worktree", "--name", "after", "--command", "troupe signal done --result ok", "--json"]);
  await waitFor("after done", async () => (await sb.json<AgentJson[]>(["ls", "--json"])).find((a) => a.name === "after")?.status === "done", 20_000);
});
