import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/**
 * A generic agent that ends `done` headless; attached (TROUPE_ATTACHED=1) it stands for an
 * interactive CLI: it says so, then waits for the file `release` and exits 3.
 */
const COMMAND = [
  'if [ -n "$TROUPE_ATTACHED" ]; then echo "interactive $TROUPE_AGENT_NAME"; while [ ! -f "$TROUPE_WORKSPACE/release" ]; do sleep 0.05; done; exit 3; fi',
  'troupe signal done --result "run $TROUPE_PROMPT"',
].join("\n");

const agentNamed = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
const statusIs = (name: string, status: string) => async () => {
  const a = await agentNamed(name);
  return a?.status === status ? a : undefined;
};

async function doneAgent(name: string): Promise<Agent> {
  await sb.json(["spawn", "--name", name, "--command", COMMAND, "--json"]);
  return waitFor(`${name} done`, statusIs(name, "done"));
}

/** `troupe attach NAME` left running (stdio piped: no terminal is needed to stand for one). */
async function attach(name: string) {
  const client = sb.start(["attach", name]);
  const attached = await waitFor(`${name} attached with its CLI's pid`, async () => {
    const a = await agentNamed(name);
    return a?.status === "attached" && a.pid !== null ? a : undefined;
  });
  return { client, attached };
}

const release = () => Bun.write(join(sb.dir, "release"), "");

test("attach marks the agent attached in a new session; a resume is refused and a message waits; the CLI's exit puts it back and the message then wakes it", async () => {
  sb = new Sandbox();
  const before = await doneAgent("ada");
  const { client, attached } = await attach("ada");
  expect(attached.session).toBe(before.session + 1);
  // the interactive CLI runs in the agent's worktree with its identity
  const ps = readFileSync(`/proc/${attached.pid}/environ`, "utf8").split("\0");
  expect(ps).toContain("TROUPE_ATTACHED=1");
  expect(readlinkSync(`/proc/${attached.pid}/cwd`)).toBe(attached.cwd);
  expect(attached.cwd).toContain(join(".troupe", "worktrees", "ada"));

  const resume = await sb.run(["resume", "ada", "--message", "go on"]);
  expect(resume.code).not.toBe(0);
  expect(resume.stderr).toContain("ada is attached; only a waiting, done, failed or stopped agent can be resumed");
  // a message is queued, not delivered, while the person has it
  expect((await sb.run(["send", "ada", "after you"])).code).toBe(0);
  expect((await agentNamed("ada"))!.status).toBe("attached");
  // nothing else may start a process for it; it is not removable either
  expect((await sb.run(["rm", "ada"])).stderr).toContain("ada is attached");

  await release();
  expect(await client.exited).toBe(0);
  const out = await new Response(client.stdout).text();
  expect(out).toContain("interactive ada");
  // (back to done, and already woken by the waiting message: the detach may see either)
  expect(out).toMatch(/detached from ada: (done|starting|running)/);
  // back to done, then the waiting message resumes it headless (a session after the attached one)
  const woken = await waitFor("ada woken by the message", async () => {
    const a = await agentNamed("ada");
    return a && a.session > attached.session && a.status === "done" ? a : undefined;
  });
  expect(woken.result).toContain("after you");
  // the attached session is one of its own in the output: what the log says of it
  const logs = await sb.run(["logs", "ada", "--session", String(attached.session)]);
  expect(logs.stdout).toContain("runs on the person's terminal");
});

test("attach refuses a running agent without --stop, and stops it first with --stop", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--name", "bo", "--command", 'if [ -n "$TROUPE_ATTACHED" ]; then exit 0; fi; sleep 100000', "--json"]);
  await waitFor("bo running", statusIs("bo", "running"));
  const refused = await sb.run(["attach", "bo"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("bo is running; stop it first (troupe attach --stop)");
  const stopped = await sb.run(["attach", "bo", "--stop"]);
  expect(stopped.stderr).toBe("");
  expect(stopped.stdout).toContain("detached from bo: stopped");
});

test("the attached CLI killed while its client is gone: the daemon ends the attachment itself", async () => {
  sb = new Sandbox();
  await doneAgent("cy");
  const { client, attached } = await attach("cy");
  client.kill("SIGKILL");
  await client.exited;
  expect((await agentNamed("cy"))!.status).toBe("attached");
  process.kill(attached.pid!, "SIGKILL");
  const back = await waitFor("cy back to done", statusIs("cy", "done"));
  expect(back.session).toBe(attached.session);
});

test("daemon kill -9 while attached: the next daemon keeps the attachment, and ends it when the CLI exits", async () => {
  sb = new Sandbox();
  await doneAgent("di");
  const { client, attached } = await attach("di");
  await sb.killDaemon();
  // a new daemon (started by this request) adopts the interactive CLI's session
  expect((await agentNamed("di"))!.status).toBe("attached");
  await release();
  expect(await client.exited).toBe(0);
  expect(await new Response(client.stdout).text()).toContain("detached from di: done");
  expect((await agentNamed("di"))!.session).toBe(attached.session);
});

test("daemon and client both killed while attached, the CLI exits meanwhile: the next daemon puts the agent back", async () => {
  sb = new Sandbox();
  await doneAgent("el");
  const { client, attached } = await attach("el");
  client.kill("SIGKILL");
  await client.exited;
  await sb.killDaemon();
  await release();
  await waitFor("the CLI gone", () => !existsSync(`/proc/${attached.pid}`) || readFileSync(`/proc/${attached.pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z"));
  const back = await waitFor("el back to done", statusIs("el", "done"));
  expect(back.session).toBe(attached.session);
});

test("troupe stop on an attached agent ends its CLI, found by its pid though its environment lost the marker; the agent is stopped", async () => {
  sb = new Sandbox();
  // attached, it replaces itself (same pid) with a process whose environment holds no troupe marker
  const command = [
    'if [ -n "$TROUPE_ATTACHED" ]; then exec env -i PATH="$PATH" sh -c "while :; do sleep 0.05; done"; fi',
    "troupe signal done --result ok",
  ].join("\n");
  await sb.json(["spawn", "--name", "fy", "--command", command, "--json"]);
  await waitFor("fy done", statusIs("fy", "done"));
  const { client, attached } = await attach("fy");
  await waitFor("the marker gone from its environment", () => !readFileSync(`/proc/${attached.pid}/environ`, "utf8").includes("TROUPE_SESSION_KEY"));
  expect((await sb.run(["stop", "fy"])).code).toBe(0);
  expect(await client.exited).toBe(0);
  expect(await new Response(client.stdout).text()).toContain("detached from fy: stopped");
  await waitFor("the CLI gone", () => !existsSync(`/proc/${attached.pid}`));
  expect((await agentNamed("fy"))!.status).toBe("stopped");
});
