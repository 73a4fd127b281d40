import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { fakeClaude, resultLine } from "../support/fake-claude.ts";

const SLOW = { timeout: 40_000 };

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

function config(lifecycle: Record<string, unknown>): void {
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify({ lifecycle }));
}

async function agent(name: string): Promise<Agent> {
  const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
  if (!a) throw new Error(`no agent ${name}`);
  return a;
}

const ended = (name: string, timeoutMs = 20_000) =>
  waitFor(`${name} to end`, async () => {
    const a = await agent(name);
    return ["done", "failed", "waiting", "stopped"].includes(a.status) && a.retryAt === null ? a : undefined;
  }, timeoutMs);

test("a transient failure is retried after a backoff, shown as starting with the next attempt, then succeeds", async () => {
  sb = new Sandbox();
  config({ retry: { baseDelayMs: 1500, jitter: 0 } });
  const mark = join(sb.dir, "first-run-done");
  // the first run fails the way a provider's network error would; the second succeeds
  const command = `if [ -f ${mark} ]; then troupe signal done --result second; else touch ${mark}; troupe signal error --error "connection reset by peer" --class network; fi`;
  await sb.json(["spawn", "--no-worktree", "--name", "flaky", "--command", command, "--json"]);
  const waiting = await waitFor("the retry to be pending", async () => {
    const a = await agent("flaky");
    return a.retryAt !== null ? a : undefined;
  });
  expect(waiting.status).toBe("starting");
  expect(waiting.failure).toMatchObject({ class: "network", evidence: "connection reset by peer", attempt: 1, maxAttempts: 3 });
  const ls = await sb.run(["ls"]);
  expect(ls.stdout).toMatch(/network · attempt 2\/3 in [012]s/);
  const done = await ended("flaky");
  expect(done).toMatchObject({ status: "done", result: "second", attempt: 2, session: 2, failure: { class: "network", attempt: 1 } });
}, SLOW);

test("a pending retry is a deadline in the store: a daemon killed while it waits leaves it to the next", async () => {
  sb = new Sandbox();
  config({ retry: { baseDelayMs: 3000, jitter: 0 } });
  const mark = join(sb.dir, "first-run-done");
  const command = `if [ -f ${mark} ]; then troupe signal done --result later; else touch ${mark}; troupe signal error --error "reset" --class network; fi`;
  await sb.json(["spawn", "--no-worktree", "--name", "patient", "--command", command, "--json"]);
  await waitFor("the retry to be pending", async () => ((await agent("patient")).retryAt !== null ? true : undefined));
  await sb.killDaemon();
  // the next client starts a daemon, which starts the retry at its time
  expect(await ended("patient")).toMatchObject({ status: "done", result: "later", attempt: 2, session: 2 });
}, SLOW);

test("stopping an agent calls off its pending retry", async () => {
  sb = new Sandbox();
  config({ retry: { baseDelayMs: 1500, jitter: 0 } });
  await sb.json(["spawn", "--no-worktree", "--name", "called-off", "--command", `troupe signal error --error "reset" --class network`, "--json"]);
  const pending = await waitFor("the retry to be pending", async () => {
    const a = await agent("called-off");
    return a.retryAt !== null ? a : undefined;
  });
  await sb.json(["stop", "called-off", "--json"]);
  const stopped = await agent("called-off");
  expect(stopped).toMatchObject({ status: "stopped", retryAt: null, session: 1 });
  // past the moment the retry would have started, nothing started
  await Bun.sleep(Math.max(0, pending.retryAt! - Date.now()) + 1000);
  expect(await agent("called-off")).toMatchObject({ status: "stopped", session: 1 });
}, SLOW);

test("a transient failure on every attempt fails after the last, with the class, evidence and attempt", async () => {
  sb = new Sandbox();
  config({ retry: { baseDelayMs: 100, jitter: 0, maxAttempts: 2 } });
  await sb.json(["spawn", "--no-worktree", "--name", "down", "--command", `troupe signal error --error "503 upstream" --class overloaded`, "--json"]);
  const a = await ended("down");
  expect(a).toMatchObject({ status: "failed", attempt: 2, session: 2, failure: { class: "overloaded", evidence: "503 upstream", attempt: 2 } });
  const logs = await sb.run(["logs", "down"]);
  expect(logs.stderr).toContain("down failed, attempt 2: overloaded: 503 upstream");
}, SLOW);

test("a class that is never retried fails at once", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "nokey", "--command", `troupe signal error --error "bad key" --class auth`, "--json"]);
  const a = await ended("nokey");
  expect(a).toMatchObject({ status: "failed", attempt: 1, session: 1, failure: { class: "auth", attempt: 1 } });
}, SLOW);

/** Spawns a claude agent run by the stand-in CLI (it has a session to resume). */
async function spawnFake(name: string, body: string): Promise<string> {
  const argsFile = join(sb.runtime, `${name}-args`);
  const env = { PATH: `${fakeClaude(join(sb.runtime, name), argsFile, body)}:${process.env.PATH}` };
  await sb.json(["spawn", "--no-worktree", "--name", name, "--provider", "claude", "--prompt", "do it", "--json"], { env });
  return argsFile;
}

test("a missing signal is recovered by one resume of the same session that says what is missing", async () => {
  sb = new Sandbox();
  const argsFile = await spawnFake("forgetful", `case "$prompt" in *"signal is missing"*) troupe signal done --result recovered ;; *) echo '${resultLine("did it")}' ;; esac`);
  const a = await ended("forgetful");
  expect(a).toMatchObject({ status: "done", result: "recovered", attempt: 2, session: 2, failure: { class: "missing_signal", attempt: 1 } });
  const args = readFileSync(argsFile, "utf8");
  expect(args).toContain("--resume\nfake-session\n");
}, SLOW);

test("a missing signal is resumed only once", async () => {
  sb = new Sandbox();
  await spawnFake("mute", `echo '${resultLine("did it")}'`);
  const a = await ended("mute");
  expect(a).toMatchObject({ status: "failed", attempt: 2, session: 2, failure: { class: "missing_signal", attempt: 2 } });
}, SLOW);

test("a shell command that ends without a signal is failed, never run again by itself", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "plain", "--command", "echo working", "--json"]);
  const a = await ended("plain");
  expect(a).toMatchObject({ status: "failed", attempt: 1, session: 1, failure: { class: "missing_signal", attempt: 1 } });
}, SLOW);

test("an agent killed with kill -9 while the daemon is down is resumed once on the next start", async () => {
  sb = new Sandbox();
  const pidFile = join(sb.dir, "pid");
  await spawnFake("victim", `case "$prompt" in *interrupted*) troupe signal done --result resumed ;; *) echo $$ > ${pidFile}; exec sleep 1000 ;; esac`);
  await waitFor("the agent to run", () => readFileSync(pidFile, "utf8").trim() || undefined);
  const wrapper = (await agent("victim")).pid!;
  await sb.killDaemon();
  // the whole session, wrapper included: no exit status is left, as after a reboot
  process.kill(-wrapper, "SIGKILL");
  const a = await ended("victim");
  expect(a).toMatchObject({ status: "done", result: "resumed", attempt: 2, session: 2, failure: { class: "interrupted", attempt: 1 } });
}, SLOW);

test("an inactivity timeout stops the run and fails it with class timeout", async () => {
  sb = new Sandbox();
  config({ retry: { maxAttempts: 1 } });
  await sb.json(["spawn", "--no-worktree", "--name", "hung", "--idle-timeout", "2s", "--command", "echo started; sleep 1000", "--json"]);
  const a = await ended("hung");
  expect(a).toMatchObject({ status: "failed", failure: { class: "timeout", evidence: "no output for 2 s", attempt: 1 } });
}, SLOW);

test("an agent waiting on purpose for a message is not idle: its inactivity clock stops while it waits", async () => {
  sb = new Sandbox();
  config({ retry: { maxAttempts: 1 } });
  const cmd = "echo waiting; troupe inbox --wait --timeout 20000 --json > got.json; troupe signal done --result woke";
  await sb.json(["spawn", "--no-worktree", "--name", "patient", "--idle-timeout", "2s", "--command", cmd, "--json"]);
  // well past its 2 s limit, still waiting in its inbox, not stopped
  const started = Date.now();
  await waitFor("4 s in the wait", async () => Date.now() - started > 4_000 && (await agent("patient"))?.status === "running", 10_000);
  expect((await sb.run(["send", "patient", "go on"])).code).toBe(0);
  const a = await ended("patient");
  expect(a).toMatchObject({ status: "done", result: "woke", failure: null });
}, SLOW);
