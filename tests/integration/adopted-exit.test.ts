import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

// The fallback poll is set to an hour: an adopted process's end must come from the kernel (a pidfd).
const NO_POLL = { TROUPE_EXIT_POLL_MS: "3600000" };

async function adoptAfterKill9(name: string, command: string): Promise<Agent> {
  Object.assign(sb.env, NO_POLL);
  await sb.json(["spawn", "--no-worktree", "--name", name, "--command", command, "--json"]);
  const agent = (await sb.json<Agent[]>(["ls", "--json"]))[0]!;
  expect(agent.status).toBe("running");
  await sb.killDaemon();
  // the next request starts a daemon, which adopts the still running agent
  expect((await sb.json<Agent[]>(["ls", "--json"]))[0]!.status).toBe("running");
  await waitFor("the new daemon to adopt it", () => readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8").includes(`adopted ${agent.id}`));
  return agent;
}

const settled = (name: string) => async () => {
  const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
  return a && a.status !== "running" ? a : undefined;
};

test("an adopted agent's end is noticed without polling: after kill -9 of the daemon, the next one completes it", async () => {
  sb = new Sandbox();
  await adoptAfterKill9("ada", "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result finished");
  await Bun.write(join(sb.dir, "go"), "");
  const done = await waitFor("ada done", settled("ada"));
  expect(done).toMatchObject({ status: "done", result: "finished" });
});

test("an adopted wrapper killed outright (no exit file) is noticed too, and fails with no code", async () => {
  sb = new Sandbox();
  const agent = await adoptAfterKill9("kit", "sleep 100000");
  process.kill(-agent.pid!, "SIGKILL");
  const ended = await waitFor("kit ended", settled("kit"));
  expect(ended.status).toBe("failed");
  expect(ended.exitCode).toBeNull();
});
