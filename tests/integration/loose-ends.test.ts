import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

async function agent(name: string): Promise<Agent | undefined> {
  return (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
}

test("a conversation a listener claimed and left unanswered when its session ended is pending again and delivered again", async () => {
  sb = new Sandbox();
  // first run: listens, takes the question, ends without answering; woken with it, it answers
  const cmd = `id=$(printf %s "$TROUPE_PROMPT" | grep -o 'conversation cv_[0-9a-f]*' | head -1 | cut -d' ' -f2)
if [ -n "$id" ]; then troupe answer "second time" --conversation "$id"; else troupe listen --timeout 20000 > /dev/null; fi
troupe signal done`;
  await sb.json(["spawn", "--no-worktree", "--name", "forgetful", "--command", cmd, "--json"]);
  await waitFor("forgetful running", async () => (await agent("forgetful"))?.status === "running");
  const asker = sb.start(["ask", "are you there?", "--to", "forgetful", "--timeout", "30000"]);
  const [out, code] = await Promise.all([new Response(asker.stdout).text(), asker.exited]);
  expect({ out, code }).toEqual({ out: "second time\n", code: 0 });
  const [conv] = await sb.json<Conversation[]>(["conversations", "--json"]);
  expect(conv).toMatchObject({ status: "answered", answer: "second time", answeredBy: "forgetful" });
  expect((await agent("forgetful"))!.session).toBe(2);
});

test("a daemon killed between starting a session's wrapper and storing its pid leaves no unknown process: the next daemon adopts it from the wrapper's pid file", async () => {
  sb = new Sandbox();
  const gate = join(sb.dir, "go");
  await sb.json(["spawn", "--no-worktree", "--name", "orphan", "--command", `while [ ! -f "${gate}" ]; do sleep 0.05; done; troupe signal done --result survived`, "--json"]);
  await waitFor("orphan running", async () => (await agent("orphan"))?.status === "running");
  await sb.killDaemon();
  // what a daemon killed mid-launch leaves: the session recorded, its pid not yet
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  db.run("UPDATE agent_sessions SET pid = NULL, pid_start = NULL");
  db.run("UPDATE agents SET status = 'starting'");
  db.close();
  const adopted = await agent("orphan");
  expect(adopted!.status).toBe("running");
  expect(adopted!.pid).toBeGreaterThan(0);
  writeFileSync(gate, "");
  const done = await waitFor("orphan done", async () => {
    const a = await agent("orphan");
    return a?.status === "done" || a?.status === "failed" ? a : undefined;
  });
  expect(done).toMatchObject({ status: "done", result: "survived" });
});

/** An agent that notes each run in a file, then ends done; ended, with the daemon killed. */
async function ranOnceThenKilled(name: string): Promise<string> {
  sb = new Sandbox();
  const runs = join(sb.exchange, "runs");
  await sb.json(["spawn", "--no-worktree", "--name", name, "--command", `echo run >> "${runs}"; troupe signal done --result ran`, "--json"]);
  await waitFor(`${name} done`, async () => (await agent(name))?.status === "done");
  await sb.killDaemon();
  return runs;
}

const ended = (name: string) =>
  waitFor(`${name} to end`, async () => {
    const a = await agent(name);
    return a?.status === "done" || a?.status === "failed" ? a : undefined;
  });

test("a daemon killed after recording an agent and before its first session: the next daemon starts it, once", async () => {
  const runs = await ranOnceThenKilled("cutoff");
  // what a daemon killed mid-spawn leaves: the agent recorded, starting, with no session
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  db.run("DELETE FROM agent_sessions");
  db.run("UPDATE agents SET status = 'starting', session = 0, result = NULL");
  db.close();
  writeFileSync(runs, "");
  expect(await ended("cutoff")).toMatchObject({ status: "done", result: "ran", session: 1 });
  expect(readFileSync(runs, "utf8")).toBe("run\n");
});

test("a daemon killed after recording a session and before its wrapper started: the next daemon starts it again, once", async () => {
  const runs = await ranOnceThenKilled("unlaunched");
  // the session recorded, no pid, and nothing on disk of a wrapper (no pid file, no exit file)
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  const { exit_path } = db.query("SELECT exit_path FROM agent_sessions").get() as { exit_path: string };
  db.run("UPDATE agent_sessions SET pid = NULL, pid_start = NULL, ended_at = NULL, exit_code = NULL");
  db.run("UPDATE agents SET status = 'starting', result = NULL");
  db.close();
  rmSync(exit_path, { force: true });
  rmSync(exit_path.replace(/\.exit$/, ".pid"), { force: true });
  writeFileSync(runs, "");
  expect(await ended("unlaunched")).toMatchObject({ status: "done", result: "ran", session: 2 });
  expect(readFileSync(runs, "utf8")).toBe("run\n");
});
