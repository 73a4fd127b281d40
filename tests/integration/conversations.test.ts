import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

const LISTEN_AND_ANSWER = (answer: string) =>
  `q=$(troupe listen --timeout 20000) && id=$(printf '%s' "$q" | sed -n 's/.*"conversationId":"\\([^"]*\\)".*/\\1/p') && troupe answer '${answer}' --conversation "$id" && troupe signal done --result answered`;

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

async function agentNamed(name: string): Promise<Agent | undefined> {
  const agents = await sb.json<Agent[]>(["ls", "--json"]);
  return agents.find((a) => a.name === name);
}

describe("conversations between agents", () => {
  test("one agent asks, the other listens and answers; both end done and the asker's result is the answer", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--name", "bob", "--command", LISTEN_AND_ANSWER("forty-two"), "--json"]);
    await sb.json([
      "spawn",
      "--name",
      "alice",
      "--command",
      `ans=$(troupe ask 'what is six times seven?' --to bob --timeout 20000) && troupe signal done --result "$ans"`,
      "--json",
    ]);
    const done = await waitFor("both agents done", async () => {
      const agents = await sb.json<Agent[]>(["ls", "--json"]);
      return agents.length === 2 && agents.every((a) => a.status === "done" || a.status === "failed") ? agents : undefined;
    });
    const alice = done.find((a) => a.name === "alice")!;
    const bob = done.find((a) => a.name === "bob")!;
    expect(bob).toMatchObject({ status: "done", result: "answered" });
    expect(alice).toMatchObject({ status: "done", result: "forty-two" });
    const convs = await sb.json<Conversation[]>(["conversations", "--json"]);
    expect(convs).toHaveLength(1);
    expect(convs[0]).toMatchObject({ fromName: "alice", toId: bob.id, status: "answered", answer: "forty-two" });
  });

  test("ask --to a busy agent whose CLI takes no input mid-run: it answers when it looks between steps, and the asker has it before that run ends", async () => {
    sb = new Sandbox();
    // bob works in steps and looks between them, as the listen.poll prompt block tells it to; its
    // marks are outside its worktree (files left there would resume it to commit them)
    const marks = join(sb.runtime, "marks");
    mkdirSync(marks);
    const step = `q=$(troupe listen --timeout 0) && id=$(printf '%s' "$q" | sed -n 's/.*"conversationId":"\\([^"]*\\)".*/\\1/p') && troupe answer 'forty-two' --conversation "$id" && touch ${marks}/answered`;
    await sb.json(["spawn", "--name", "bob", "--command", `for i in $(seq 60); do sleep 0.5; ${step}; [ -e ${marks}/answered ] && [ -e ${marks}/go ] && break; done; troupe signal done --result worked`, "--json"]);
    await waitFor("bob running", async () => (await agentNamed("bob"))?.status === "running");
    await sb.json(["spawn", "--name", "alice", "--command", `ans=$(troupe ask 'what is six times seven?' --to bob --timeout 20000) && troupe signal done --result "$ans"`, "--json"]);
    const alice = await waitFor("alice done", async () => {
      const a = await agentNamed("alice");
      return a && a.status !== "running" && a.status !== "starting" ? a : undefined;
    });
    expect(alice).toMatchObject({ status: "done", result: "forty-two" });
    // bob's run goes on: it answered between two steps, not at its end
    expect((await agentNamed("bob"))?.status).toBe("running");
    // the asker is told the question waits until bob looks (stderr: stdout stays the answer)
    const ask = sb.start(["ask", "and seven times six?", "--to", "bob", "--timeout", "20000"]);
    const [out, err, code] = await Promise.all([new Response(ask.stdout).text(), new Response(ask.stderr).text(), ask.exited]);
    expect({ out, code }).toEqual({ out: "forty-two\n", code: 0 });
    expect(err).toBe("troupe: bob is running: its CLI takes no input mid-run, so the question is queued until it looks (troupe listen); waiting for the answer\n");
    writeFileSync(join(marks, "go"), "");
    expect(await waitFor("bob done", async () => ((await agentNamed("bob"))?.status === "done" ? agentNamed("bob") : undefined))).toMatchObject({ session: 1, result: "worked" });
  });

  test("a --user question is answered with troupe answer and the asking agent gets it", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "carol", "--command", `a=$(troupe ask 'deploy to prod?' --user) && troupe signal done --result "got:$a"`, "--json"]);
    const conv = await waitFor("a pending user conversation", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"]))[0]);
    expect(conv).toMatchObject({ fromName: "carol", toId: "user", status: "pending" });
    const r = await sb.run(["answer", "yes, go", "--conversation", conv.id]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ conversationId: conv.id, status: "answered" });
    const carol = await waitFor("carol done", async () => {
      const a = await agentNamed("carol");
      return a?.status === "done" ? a : undefined;
    });
    expect(carol.result).toBe("got:yes, go");
    // the same answer again (a client whose daemon died before it replied sends it again) is taken as given once
    const same = await sb.run(["answer", "yes, go", "--conversation", conv.id]);
    expect({ code: same.code, reply: JSON.parse(same.stdout) }).toEqual({ code: 0, reply: { conversationId: conv.id, status: "answered" } });
    const again = await sb.run(["answer", "no", "--conversation", conv.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already answered");
    const unknown = await sb.run(["answer", "x", "--conversation", "cv_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("troupe: no conversation 'cv_nope'\n");
  });

  test("ask from the shell times out with exit 3 and the conversation is expired, not left pending", async () => {
    sb = new Sandbox();
    const r = await sb.run(["ask", "anyone there?", "--user", "--timeout", "300"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("no answer");
    const convs = await sb.json<Conversation[]>(["conversations", "--json"]);
    expect(convs.map((c) => c.status)).toEqual(["expired"]);
    const late = await sb.run(["answer", "too late", "--conversation", convs[0]!.id]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("expired");
  });

  test("listen times out with exit 3; the same conversation is never handed out twice", async () => {
    sb = new Sandbox();
    const r = await sb.run(["listen", "--timeout", "200"]);
    expect(r.code).toBe(3);
    const ask = sb.start(["ask", "one question", "--user", "--timeout", "20000"]);
    const first = await sb.run(["listen", "--timeout", "5000"]);
    expect(first.code).toBe(0);
    const msg = JSON.parse(first.stdout) as { conversationId: string; from: string; fromName: string; question: string };
    expect(msg).toMatchObject({ from: "user", fromName: "user", question: "one question" });
    const second = await sb.run(["listen", "--timeout", "300"]);
    expect(second.code).toBe(3);
    await sb.run(["answer", "done", "--conversation", msg.conversationId]);
    expect(await ask.exited).toBe(0);
    expect(await new Response(ask.stdout).text()).toBe("done\n");
  });

  test("--task and --phase targets that do not exist are named", async () => {
    sb = new Sandbox();
    const r = await sb.run(["ask", "status?", "--task", "t1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("troupe: no task 't1'\n");
    const p = await sb.run(["ask", "status?", "--phase", "p9"]);
    expect(p.stderr).toBe("troupe: no phase 'p9'\n");
  });
});
