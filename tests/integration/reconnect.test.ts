import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { isProcessAlive } from "../../src/process-info.ts";
import { agentSocketFor } from "../../src/workspace.ts";

/**
 * Issue 32, item 3: the agent-side and follow commands outlive a daemon that dies under them. The
 * daemon is stopped (SIGSTOP) while the request is on its way and killed (SIGKILL) once it is: the
 * connection breaks mid-request, deterministically, and the command must carry on with the next
 * daemon it starts.
 */
let sb: Sandbox | undefined;
let stopped: number | null = null;
afterEach(async () => {
  if (stopped !== null) killAndWait(stopped);
  stopped = null;
  await sb?.close();
  sb = undefined;
});

const alive = (pid: number) => isProcessAlive(pid, null);

function killAndWait(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) Bun.sleepSync(10);
}

/** The descendants of `pid` (by /proc's children lists). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    for (const task of safe(() => readdirSync(`/proc/${p}/task`), [])) {
      for (const c of safe(() => readFileSync(`/proc/${p}/task/${task}/children`, "utf8"), "").split(" ").filter(Boolean).map(Number)) {
        out.push(c);
        walk(c);
      }
    }
  };
  walk(pid);
  return out;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * The connections to `socket` waiting in its listener's backlog (/proc/net/unix: its path, state
 * 02, not accepted yet): with its daemon stopped, a client's, its request written to it. The path
 * is the one bound: Deno's daemon binds a temporary name (`d.sock.PID.N`) and renames it into place.
 */
function waitingOn(socket: string): number {
  const rows = readFileSync("/proc/net/unix", "utf8").split("\n").slice(1);
  const ours = (path: string | undefined) => path === socket || path?.startsWith(`${socket}.`) === true;
  return rows.map((r) => r.trim().split(/\s+/)).filter((f) => f[5] === "02" && ours(f[7])).length;
}

const cmdline = (pid: number) => safe(() => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"), [] as string[]);

test("troupe signal whose daemon is killed mid-request is sent again to the next daemon, and the run ends done", async () => {
  const s = (sb = new Sandbox());
  const cmd = `while [ ! -f go ]; do sleep 0.02; done; troupe signal done --result kept`;
  const agent = await s.json<Agent>(["spawn", "--no-worktree", "--name", "sig", "--command", cmd, "--json"]);
  const running = await waitFor("the agent to run", async () => {
    const a = (await s.json<Agent[]>(["ls", "--json"])).find((x) => x.id === agent.id);
    return a?.status === "running" && a.pid !== null ? a : undefined;
  });
  const daemon = (await s.daemonPid())!;
  process.kill(daemon, "SIGSTOP");
  stopped = daemon;
  // a sandboxed agent's troupe reaches the daemon on the agents' socket; with none, it waits for the next (the ls below starts it)
  const agents = agentSocketFor(s.socket);
  const before = waitingOn(agents);
  writeFileSync(join(s.dir, "go"), "");
  // the signal command running, its connection waiting for the stopped daemon
  const signaller = await waitFor("troupe signal to start", () => descendants(running.pid!).find((p) => cmdline(p).includes("signal")), 30_000);
  await waitFor("troupe signal to connect", () => waitingOn(agents) > before, 30_000);
  expect(alive(signaller)).toBe(true);
  killAndWait(daemon);
  stopped = null;
  const ended = await waitFor(
    "the agent to end",
    async () => {
      const a = (await s.json<Agent[]>(["ls", "--json"])).find((x) => x.id === agent.id);
      return a && a.status !== "running" && a.status !== "starting" ? a : undefined;
    },
    60_000,
  );
  expect(ended).toMatchObject({ status: "done", result: "kept" });
  expect(await s.daemonPid()).not.toBe(daemon);
  const raw = await s.run(["logs", "sig", "--raw"]);
  expect(raw.stdout).toBe("signalled done\n");
  // said once, while no daemon answered
  expect(raw.stderr).toBe("troupe: the workspace's daemon is not running; waiting for it to come back (a sandboxed agent cannot start it)\n");
});

const LINES = 600;

test("troupe logs -f across a kill -9: all 600 lines once, in order, and it follows on after the restart", async () => {
  const s = (sb = new Sandbox());
  // the first half, then a wait for "half" (made once the daemon is dead), the second half, a wait for "go"
  const cmd = `i=1; while [ $i -le ${LINES} ]; do echo "line $i"; if [ $i -eq ${LINES / 2} ]; then while [ ! -f half ]; do sleep 0.02; done; fi; i=$((i+1)); done; while [ ! -f go ]; do sleep 0.02; done; troupe signal done`;
  await s.json(["spawn", "--no-worktree", "--name", "talker", "--command", cmd, "--json"]);
  const follow = s.start(["logs", "talker", "-f", "--raw"]);
  let out = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const bytes of follow.stdout) out += decoder.decode(bytes, { stream: true });
  })();
  const errText = new Response(follow.stderr).text();
  const lines = () => out.split("\n").filter(Boolean);
  await waitFor("the first half followed", () => lines().length >= LINES / 2, 30_000);
  const first = await s.killDaemon();
  writeFileSync(join(s.dir, "half"), "");
  // the second half is written with no daemon; the follower starts the next one and goes on from its last chunk
  let gone = false;
  void follow.exited.then(() => (gone = true));
  await waitFor("all lines followed", () => lines().length >= LINES || gone, 60_000);
  expect({ gone, lines: lines().length }).toEqual({ gone: false, lines: LINES });
  writeFileSync(join(s.dir, "go"), "");
  const code = await follow.exited;
  await reading;
  expect({ code, stderr: await errText }).toEqual({ code: 0, stderr: "" });
  const expected = Array.from({ length: LINES }, (_, i) => `line ${i + 1}`);
  expect(lines()).toEqual([...expected, "signalled done"]);
  const next = await s.daemonPid();
  expect(next).not.toBeNull();
  expect(next).not.toBe(first);
  expect(existsSync(join(s.dir, ".troupe"))).toBe(true);
});
