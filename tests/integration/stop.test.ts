import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { hostPid } from "../support/host-pid.ts";
import type { Agent } from "../../src/protocol/entities.ts";

// The daemon's grace between SIGTERM and SIGKILL, and the room the tests give beyond it.
const GRACE_MS = 5_000;
const ROOM_MS = 4_000;
/** A test that waits out a grace gets room for it. */
const SLOW = { timeout: 30_000 };

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/** Alive and not a zombie (a killed orphan may wait a moment to be reaped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

/** A shell that ignores SIGTERM and writes its pid to `file` in the workspace. */
const stubborn = (file: string) => `trap "" TERM; echo $$ > ${file}; sleep 1000`;

async function spawnWaitingFor(name: string, command: string, pidFile: string): Promise<{ agent: Agent; pid: number }> {
  const agent = await sb.json<Agent>(["spawn", "--no-worktree", "--name", name, "--command", command, "--json"]);
  // its `$$`, as the machine numbers it (in its sandbox, its own PID namespace numbers it anew)
  const pid = await waitFor(`${name}'s pid file`, () => {
    const text = readFileSync(join(sb.dir, pidFile), "utf8").trim();
    return text ? hostPid(Number(text), agent.id) : undefined;
  });
  expect(alive(pid)).toBe(true);
  return { agent, pid };
}

async function agent(name: string): Promise<Agent | undefined> {
  return (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
}

test("a stop survives kill -9 of the daemon: the next daemon SIGKILLs what ignored SIGTERM", async () => {
  sb = new Sandbox();
  const { pid } = await spawnWaitingFor("stubborn", stubborn("a.pid"), "a.pid");
  expect((await sb.run(["stop", "stubborn"])).code).toBe(0);
  await sb.killDaemon();
  expect(alive(pid)).toBe(true); // SIGTERM was ignored, and the SIGKILL was the dead daemon's to send
  expect((await agent("stubborn"))?.status).toBe("stopped"); // any client starts the next daemon
  await waitFor("the process to be killed", () => !alive(pid), GRACE_MS + ROOM_MS);
}, SLOW);

test("a second stop still kills when the first one's SIGKILL was lost", async () => {
  sb = new Sandbox();
  const { pid } = await spawnWaitingFor("twice", stubborn("b.pid"), "b.pid");
  expect((await sb.run(["stop", "twice"])).code).toBe(0);
  await sb.killDaemon();
  const again = await sb.run(["stop", "twice"]);
  expect(again.code).toBe(0);
  expect(again.stdout).toBe("twice stopped\n");
  await waitFor("the process to be killed", () => !alive(pid), GRACE_MS + ROOM_MS);
}, SLOW);

test("stop reaches what a finished agent left running", async () => {
  sb = new Sandbox();
  const cmd = `setsid sh -c '${stubborn("left.pid")}' > /dev/null 2>&1 & while [ ! -s left.pid ]; do sleep 0.05; done; troupe signal done --result ok`;
  const { pid } = await spawnWaitingFor("leaver", cmd, "left.pid");
  await waitFor("leaver done", async () => (await agent("leaver"))?.status === "done");
  expect(alive(pid)).toBe(true);
  expect((await sb.run(["stop", "leaver"])).code).toBe(0);
  await waitFor("the left-over process to be killed", () => !alive(pid), GRACE_MS + ROOM_MS);
}, SLOW);

test("rm of a stopped agent whose processes live finishes the stop before it removes anything", async () => {
  sb = new Sandbox();
  const { pid } = await spawnWaitingFor("lingers", stubborn("c.pid"), "c.pid");
  expect((await sb.run(["stop", "lingers"])).code).toBe(0);
  expect(alive(pid)).toBe(true);
  const rm = await sb.run(["rm", "lingers"]);
  expect(rm.code).toBe(0);
  expect(alive(pid)).toBe(false); // gone by the time rm returns
  expect(await agent("lingers")).toBeUndefined();
}, SLOW);

test("a child that calls setsid is found and killed by stop", async () => {
  sb = new Sandbox();
  const cmd = `setsid sh -c '${stubborn("d.pid")}' > /dev/null 2>&1 & wait`;
  const { agent: a, pid } = await spawnWaitingFor("escaper", cmd, "d.pid");
  // it really left the agent's process group
  const pgid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[2]);
  expect(pgid).not.toBe(a.pid!);
  expect((await sb.run(["stop", "escaper"])).code).toBe(0);
  await waitFor("the escaped process to be killed", () => !alive(pid), GRACE_MS + ROOM_MS);
}, SLOW);

test("an agent killed by a signal reports 128 + the signal: 143 for a stop, 137 for kill -9", async () => {
  sb = new Sandbox();
  const term = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "termed", "--command", "sleep 1000", "--json"]);
  const killed = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "killed", "--command", "sleep 1000", "--json"]);
  expect((await sb.run(["stop", term.name])).code).toBe(0);
  process.kill(killed.pid!, "SIGKILL");
  expect(await waitFor("termed's exit code", async () => (await agent("termed"))?.exitCode ?? undefined)).toBe(143);
  const k = await waitFor("killed ended", async () => {
    const x = await agent("killed");
    return x?.exitCode != null ? x : undefined;
  });
  expect(k).toMatchObject({ status: "failed", exitCode: 137 });
  // its command's shell outlived the wrapper: a stop of the failed agent ends it
  expect((await sb.run(["stop", "killed"])).code).toBe(0);
}, SLOW);

test("an adopted agent (started by an earlier daemon) that a stop kills reports 143", async () => {
  sb = new Sandbox();
  const a = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "adopted", "--command", "sleep 1000", "--json"]);
  await sb.killDaemon();
  expect(alive(a.pid!)).toBe(true);
  expect((await sb.run(["stop", "adopted"])).code).toBe(0);
  expect(await waitFor("adopted's exit code", async () => (await agent("adopted"))?.exitCode ?? undefined)).toBe(143);
}, SLOW);

test("a stopped agent resumes once nothing of it lives; while its processes linger, the resume is refused", async () => {
  sb = new Sandbox();
  // the first run lingers past SIGTERM; a resumed run (the first left its mark) ends at once
  const cmd = `if [ -f ran ]; then troupe signal done --result "$TROUPE_PROMPT"; else touch ran; ${stubborn("stub.pid")}; fi`;
  const { pid } = await spawnWaitingFor("phoenix", cmd, "stub.pid");
  expect((await sb.run(["stop", "phoenix"])).code).toBe(0);
  const early = await sb.run(["resume", "phoenix", "--message", "too soon"]);
  expect(early.code).toBe(1);
  expect(early.stderr).toMatch(/^troupe: phoenix is still stopping \(pids [\d, ]+\); try again in a few seconds\n$/);
  await waitFor("the lingering process to be killed", () => !alive(pid), GRACE_MS + ROOM_MS);
  await waitFor("the resume to be accepted", async () => (await sb.run(["resume", "phoenix", "--message", "again"])).code === 0, ROOM_MS);
  const done = await waitFor("phoenix done", async () => {
    const a = await agent("phoenix");
    return a?.status === "done" ? a : undefined;
  });
  expect(done.result).toContain("again");
  expect(done.session).toBe(2);
}, SLOW);
