import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("an agent cannot answer a conversation addressed to another, and a forged token is refused", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "bob", "--command", "sleep 30", "--json"]);
  const asker = sb.start(["ask", "only bob may answer", "--to", "bob", "--timeout", "20000"]);
  const conv = await waitFor("the conversation", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"]))[0]);
  expect(conv.toName).toBe("bob");

  await sb.json([
    "spawn",
    "--no-worktree",
    "--name",
    "eve",
    "--command",
    `troupe answer 'from eve' --conversation ${conv.id} 2> eve.err; troupe signal done --result "$(cat eve.err)"`,
    "--json",
  ]);
  const eve = await waitFor("eve done", async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "eve");
    return a?.status === "done" ? a : undefined;
  });
  expect(eve.result).toBe("troupe: eve may not answer a conversation addressed to bob: an agent may answer only what is addressed to it");

  const forged = await sb.run(["answer", "forged", "--conversation", conv.id], { env: { TROUPE_AGENT_TOKEN: "not-a-real-token" } });
  expect(forged.code).toBe(1);
  expect(forged.stderr).toBe("troupe: unknown agent token\n");

  const signal = await sb.run(["signal", "done"], { env: { TROUPE_SIGNAL_FILE: `${sb.dir}/x.json`, TROUPE_AGENT_TOKEN: "forged" } });
  expect(signal.code).toBe(1);

  // still pending: nobody but bob (or the person) answered
  expect((await sb.json<Conversation[]>(["conversations", "--pending", "--json"])).map((c) => c.id)).toEqual([conv.id]);
  const user = await sb.run(["answer", "the person overrides", "--conversation", conv.id]);
  expect(user.code).toBe(0);
  expect(await asker.exited).toBe(0);
  expect(await new Response(asker.stdout).text()).toBe("the person overrides\n");
});
