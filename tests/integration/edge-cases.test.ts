import { afterEach, describe, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const agent = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

// the wake tests wait out a 4 s question by design: more than bun's default 5 s under load
describe("edges a long-running workspace meets", () => {
  test("a removed agent's name stays taken while its branch lives; a blank command registers nothing", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--name", "gone", "--command", "troupe signal done", "--json"]);
    await waitFor("gone done", async () => (await agent("gone"))?.status === "done");
    expect((await sb.run(["rm", "gone"])).code).toBe(0);
    const again = await sb.run(["spawn", "--name", "gone", "--command", "true"]);
    expect(again).toMatchObject({ code: 1, stderr: "troupe: the name 'gone' is taken (an agent or a troupe/gone branch)\n" });
    const blank = await sb.run(["spawn", "--command", " "]);
    expect(blank).toMatchObject({ code: 1, stderr: "troupe: the generic provider needs a command\n" });
    expect(await sb.json<Agent[]>(["ls", "--json"])).toEqual([]);
  });

  test("a done agent asked a question is woken once, even if it ends without answering", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "sleepy", "--command", `troupe signal done --result "run with: \${TROUPE_PROMPT:-nothing}"`, "--json"]);
    await waitFor("sleepy done", async () => (await agent("sleepy"))?.status === "done");
    const ask = sb.start(["ask", "are you there?", "--to", "sleepy", "--timeout", "4000"]);
    const woken = await waitFor("sleepy woken and done again", async () => {
      const a = await agent("sleepy");
      return a?.session === 2 && a.status === "done" ? a : undefined;
    });
    expect(woken.result).toContain("are you there?");
    expect(await ask.exited).toBe(3); // never answered: the asker times out
    expect((await agent("sleepy"))?.session).toBe(2);
    expect((await sb.json<Conversation[]>(["conversations", "--json"])).map((c) => c.status)).toEqual(["expired"]);
  }, 20_000);

  test("a question asked while an agent runs wakes it once that run ends done (agent:ended)", async () => {
    sb = new Sandbox();
    const cmd = `while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result "run with: \${TROUPE_PROMPT:-nothing}"`;
    await sb.json(["spawn", "--no-worktree", "--name", "busy", "--command", cmd, "--json"]);
    await waitFor("busy running", async () => (await agent("busy"))?.status === "running");
    const ask = sb.start(["ask", "when you are free?", "--to", "busy", "--timeout", "4000"]);
    await waitFor("the question", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"]))[0]?.status === "pending");
    expect((await agent("busy"))?.session).toBe(1);
    await Bun.write(`${sb.dir}/go`, "");
    const woken = await waitFor("busy woken and done again", async () => {
      const a = await agent("busy");
      return a?.session === 2 && a.status === "done" ? a : undefined;
    });
    expect(woken.result).toContain("when you are free?");
    expect(await ask.exited).toBe(3);
  }, 20_000);

  test("a stopped agent is not asked, and whoever was waiting on it stops waiting; a line longer than a chunk is stored whole", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "mute", "--command", "sleep 30", "--json"]);
    const waiting = sb.start(["ask", "still there?", "--to", "mute"]);
    await waitFor("the question", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"])).length === 1);
    await sb.run(["stop", "mute"]);
    expect(await waiting.exited).toBe(3);
    expect(await new Response(waiting.stderr).text()).toMatch(
      /^troupe: mute is running: its CLI takes no input mid-run, so the question is queued until it looks \(troupe listen\); waiting for the answer\ntroupe: mute can no longer answer \(conversation cv_[0-9a-f]+ expired\)\n$/,
    );
    await sb.json(["spawn", "--no-worktree", "--name", "halted", "--command", "sleep 30", "--json"]);
    await sb.run(["stop", "halted"]);
    const r = await sb.run(["ask", "hello?", "--to", "halted"]);
    expect(r).toMatchObject({ code: 1, stderr: "troupe: halted is stopped; it cannot answer\n" });
    // 200 KB on one line, with two-byte characters across every 64 KB boundary
    await sb.json(["spawn", "--no-worktree", "--name", "wide", "--command", `yes é | head -n 100000 | tr -d '\\n'; echo; troupe signal done`, "--json"]);
    await waitFor("wide done", async () => (await agent("wide"))?.status === "done");
    const raw = (await sb.run(["logs", "wide", "--raw"])).stdout.split("\n");
    expect(raw[0]).toBe("é".repeat(100_000));
  });
});
