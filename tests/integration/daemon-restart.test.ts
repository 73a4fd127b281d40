import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("a question asked before kill -9 of the daemon is answered after it, and the asker gets the answer", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "dora", "--command", `a=$(troupe ask 'which branch?' --user) && troupe signal done --result "$a"`, "--json"]);
  const conv = await waitFor("the question", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"]))[0]);
  const oldPid = await sb.daemonPid();
  expect(oldPid).toBeNumber();
  process.kill(oldPid!, "SIGKILL");
  // the asker's own reconnect may already have started the next daemon
  await waitFor("the old daemon to be gone", async () => (await sb.daemonPid()) !== oldPid);

  const r = await sb.run(["answer", "main", "--conversation", conv.id]);
  expect(r.code).toBe(0);
  const newPid = await sb.daemonPid();
  expect(newPid).not.toBe(oldPid);
  const dora = await waitFor("dora done", async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "dora");
    return a && a.status !== "running" ? a : undefined;
  });
  expect(dora).toMatchObject({ status: "done", result: "main" });
});

test("stopping the daemon stops no agent; a new daemon completes an agent that ended meanwhile, once", async () => {
  // unsandboxed: its troupe signal starts the next daemon itself; a sandboxed agent's waits for the
  // person's next command to (tests/integration/sandbox.test.ts, kill -9 while it streams)
  sb = new Sandbox({ sandboxed: false });
  await sb.json(["spawn", "--no-worktree", "--name", "ed", "--command", "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result finished", "--json"]);
  const before = (await sb.json<Agent[]>(["ls", "--json"]))[0]!;
  expect(before.status).toBe("running");
  expect((await sb.run(["daemon", "stop"])).code).toBe(0);
  process.kill(before.pid!, 0); // still alive
  await Bun.write(`${sb.dir}/go`, "");
  await waitFor("the agent process to exit", () => {
    try {
      process.kill(before.pid!, 0);
      return false;
    } catch {
      return true;
    }
  });
  const after = await waitFor("ed done", async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"]))[0];
    return a?.status === "done" ? a : undefined;
  });
  expect(after.result).toBe("finished");
});
