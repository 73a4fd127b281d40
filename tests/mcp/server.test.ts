import { afterEach, describe, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { McpSession, identityAgent } from "../support/mcp-client.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";

let sb: Sandbox;
const sessions: McpSession[] = [];
async function open(env: Record<string, string> = {}): Promise<McpSession> {
  const s = await McpSession.open(sb, env);
  sessions.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await sb?.close();
});

const agents = () => sb.json<Agent[]>(["ls", "--json"]);
const agentNamed = async (name: string) => (await agents()).find((a) => a.name === name);

describe("troupe mcp, as the person", () => {
  test("lists every tool, with its input schema", async () => {
    sb = new Sandbox();
    const mcp = await open();
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["answer", "ask", "assign", "get_agent", "handoff", "list_agents", "permission", "read_inbox", "send_message", "spawn_agent", "stop_agent", "wait_agent", "wait_for_message"].sort(),
    );
    const handoff = tools.find((t) => t.name === "handoff")!;
    expect(handoff.inputSchema.required).toEqual(["message"]);
    // each says whether it only reads (a plan-mode Claude Code calls only those)
    expect(tools.every((t) => typeof t.annotations?.readOnlyHint === "boolean")).toBe(true);
    expect(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name).sort()).toEqual(["get_agent", "list_agents", "read_inbox", "wait_agent", "wait_for_message"]);
  });

  test("spawn_agent, get_agent, list_agents, stop_agent; bad input is a tool error and the server goes on", async () => {
    sb = new Sandbox();
    const mcp = await open();
    const spawned = await mcp.json<{ id: string; name: string; status: string; parentId: string | null }>("spawn_agent", {
      command: "sleep 30",
      prompt: "wait",
      name: "sleeper",
      worktree: false,
    });
    expect(spawned).toMatchObject({ name: "sleeper", parentId: null });
    expect(["starting", "running"]).toContain(spawned.status);
    expect(await mcp.json("get_agent", { agent: "sleeper" })).toMatchObject({ id: spawned.id, provider: "generic" });
    const live = await mcp.json<{ name: string }[]>("list_agents", { status: "running" });
    expect(live.map((a) => a.name)).toEqual(["sleeper"]);
    expect(await mcp.json<unknown[]>("list_agents", { status: "done" })).toEqual([]);
    expect(await mcp.json("stop_agent", { agent: "sleeper" })).toMatchObject({ status: "stopped" });

    // issue 18: a command needs no prompt (the official Inspector CLI sent none and was refused)
    const commandOnly = await mcp.json<{ name: string }>("spawn_agent", { command: "troupe signal done --result bare", name: "bare", worktree: false });
    expect(commandOnly).toMatchObject({ name: "bare" });
    expect(await waitFor("bare done", async () => ((await agentNamed("bare"))?.status === "done" ? agentNamed("bare") : undefined))).toMatchObject({ result: "bare" });
    const { tools } = await mcp.client.listTools();
    expect(tools.find((t) => t.name === "spawn_agent")!.inputSchema.required ?? []).not.toContain("prompt");
    // neither: a CLI needs its prompt, said by the daemon
    const missing = await mcp.call("spawn_agent", {});
    expect(missing).toMatchObject({ isError: true, text: "a prompt is needed" });
    const badStatus = await mcp.call("list_agents", { status: "sleeping" });
    expect(badStatus.isError).toBe(true);
    const unknown = await mcp.call("get_agent", { agent: "nobody" });
    expect(unknown).toMatchObject({ isError: true, text: "no agent 'nobody'" });
    const profile = await mcp.call("spawn_agent", { profile: "reviewer", prompt: "review" });
    expect(profile.isError).toBe(true);
    expect(profile.text).toContain("reviewer");
    const badProvider = await mcp.call("spawn_agent", { provider: "nonesuch", prompt: "x" });
    expect(badProvider.isError).toBe(true);
    // after all that, the server still answers
    expect((await mcp.json<unknown[]>("list_agents")).length).toBe(2);
  });

  test("handoff returns the worker's result; a failing worker's error; a slow one's handle, which wait_agent follows", async () => {
    sb = new Sandbox();
    const mcp = await open();
    const ok = await mcp.call("handoff", { command: 'troupe signal done --result "42 files"', message: "count files" });
    expect(ok.isError).toBe(false);
    expect(ok.text).toContain("is done. Its result:\n\n42 files");
    expect(JSON.parse(ok.texts[1]!)).toMatchObject({ status: "done", result: "42 files" });

    const bad = await mcp.call("handoff", { command: 'troupe signal error --error "no network"', message: "fetch" });
    expect(bad).toMatchObject({ isError: true });
    expect(bad.text).toContain("failed: no network");

    const slow = await mcp.call("handoff", { command: "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result late", message: "wait", timeoutSeconds: 1 });
    expect(slow.isError).toBe(false);
    expect(slow.text).toContain("is still running after 1 s; call wait_agent");
    const handle = JSON.parse(slow.texts[1]!) as { id: string; status: string };
    expect(handle.status).toBe("running");
    const waiting = mcp.call("wait_agent", { agent: handle.id, timeoutSeconds: 60 });
    await Bun.write(`${sb.dir}/.troupe/worktrees/${(await mcp.json<{ name: string }>("get_agent", { agent: handle.id })).name}/go`, "");
    const done = await waiting;
    expect(done.text).toContain("Its result:\n\nlate");
    const tooLong = await mcp.call("wait_agent", { agent: handle.id, timeoutSeconds: 999_999 });
    expect(tooLong.isError).toBe(true);
  });

  test("handoff waits across a kill -9 of the daemon and still returns the worker's result", async () => {
    sb = new Sandbox();
    const mcp = await open();
    const handoff = mcp.call("handoff", { command: "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result survived", message: "wait for go", worktree: false }, 120_000);
    const worker = await waitFor("the worker to run", async () => (await agents()).find((a) => a.status === "running"));
    const oldPid = await sb.daemonPid();
    process.kill(oldPid!, "SIGKILL");
    // the handoff's own reconnect starts the next daemon
    await waitFor("a new daemon", async () => {
      const pid = await sb.daemonPid();
      return pid !== null && pid !== oldPid;
    });
    await Bun.write(`${sb.dir}/go`, "");
    const r = await handoff;
    expect(r.isError).toBe(false);
    expect(r.text).toBe(`${worker.name} (${worker.id}) is done. Its result:\n\nsurvived`);
  });

  test("assign returns at once, and tells the worker who assigned it and how to report back", async () => {
    sb = new Sandbox();
    const mcp = await open();
    const w = await mcp.json<{ name: string; status: string }>("assign", { command: "sleep 30", message: "index the docs" });
    expect(["starting", "running"]).toContain(w.status);
    const rec = (await agentNamed(w.name))!;
    expect(rec.prompt).toStartWith("index the docs");
    expect(rec.prompt).toContain("assigned to you by the person");
    expect(rec.prompt).toContain('{"to": "user"');
  });

  test("ask waits for the person's answer; answer replies to a question addressed to the person", async () => {
    sb = new Sandbox();
    const mcp = await open();
    // an agent asks the person; the person answers through the answer tool
    await sb.json(["spawn", "--no-worktree", "--name", "asker", "--command", `a=$(troupe ask 'which db?' --user) && troupe signal done --result "$a"`, "--json"]);
    const conv = await waitFor("the question", async () => (await sb.json<Conversation[]>(["conversations", "--pending", "--json"]))[0]);
    expect(await mcp.json("answer", { conversationId: conv.id, answer: "sqlite" })).toMatchObject({ status: "answered", answer: "sqlite" });
    await waitFor("asker done", async () => (await agentNamed("asker"))?.result === "sqlite");
    const again = await mcp.call("answer", { conversationId: conv.id, answer: "postgres" });
    expect(again.isError).toBe(true);

    // the person asks an agent through the ask tool; it answers
    await sb.json(["spawn", "--no-worktree", "--name", "oracle", "--command", `c=$(troupe listen --timeout 20000) && id=$(printf '%s' "$c" | sed 's/.*"conversationId":"\\([^"]*\\)".*/\\1/') && troupe answer "yes" --conversation "$id" && troupe signal done`, "--json"]);
    const asked = await mcp.call("ask", { to: "oracle", question: "ready?", timeoutSeconds: 30 });
    expect(asked).toMatchObject({ isError: false, text: "yes" });
    const both = await mcp.call("ask", { to: "oracle", user: true, question: "?" });
    expect(both).toMatchObject({ isError: true, text: "give exactly one of to (an agent) or user: true" });
    const expired = await mcp.call("ask", { to: "asker", question: "still there?", timeoutSeconds: 1 });
    expect(expired.isError).toBe(true);
  });
});

describe("troupe mcp, as an agent (its token decides who it is)", () => {
  test("a worker started through an agent's MCP server is its child; an agent may not stop another family's agent", async () => {
    sb = new Sandbox();
    const boss = await identityAgent(sb, "boss");
    const other = await identityAgent(sb, "other");
    const mcp = await open(boss.env);
    const r = await mcp.call("handoff", { command: 'troupe signal done --result "from worker"', message: "work", worktree: false });
    expect(r.text).toContain("from worker");
    const worker = JSON.parse(r.texts[1]!) as { id: string; parentId: string };
    expect(worker.parentId).toBe(boss.env.TROUPE_AGENT_ID);
    const w = await mcp.json<{ name: string }>("assign", { command: "sleep 30", message: "later", worktree: false });
    const rec = (await agentNamed(w.name))!;
    expect(rec.parentId).toBe(boss.env.TROUPE_AGENT_ID);
    expect(rec.prompt).toContain(`assigned to you by the agent boss (${boss.env.TROUPE_AGENT_ID})`);
    expect(rec.prompt).toContain('{"to": "supervisor"');

    const refused = await mcp.call("stop_agent", { agent: "other" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("boss may not stop other");
    expect((await agentNamed("other"))!.status).toBe("running");
    // its own child it may stop
    expect(await mcp.json("stop_agent", { agent: w.name })).toMatchObject({ status: "stopped" });

    // naming itself as someone else changes nothing: the token is the identity
    const posing = await open({ ...boss.env, TROUPE_AGENT_ID: other.env.TROUPE_AGENT_ID, TROUPE_AGENT_NAME: "other" });
    const q = await posing.call("ask", { user: true, question: "who am I?", timeoutSeconds: 1 });
    expect(q.isError).toBe(true);
    const conv = (await sb.json<Conversation[]>(["conversations", "--json"])).find((c) => c.question === "who am I?")!;
    expect(conv.fromId).toBe(boss.env.TROUPE_AGENT_ID);
    const posed = await posing.call("stop_agent", { agent: "other" });
    expect(posed.isError).toBe(true);

    const forged = await open({ TROUPE_AGENT_TOKEN: "forged", TROUPE_AGENT_ID: other.env.TROUPE_AGENT_ID });
    const f = await forged.call("list_agents");
    expect(f.isError).toBe(true);
    await boss.release();
    await other.release();
  });

  test("a plan-mode agent reads but starts no agent: handoff, assign and spawn_agent are refused in one line", async () => {
    sb = new Sandbox();
    const planner = await identityAgent(sb, "planner", ["--permissions", "plan"]);
    const mcp = await open(planner.env);
    expect((await mcp.json<{ name: string }[]>("list_agents")).map((a) => a.name)).toEqual(["planner"]);
    const refusal = "planner runs in plan mode and may not start agents: put the work in its plan";
    for (const [name, args] of [
      ["handoff", { command: "troupe signal done", message: "work", worktree: false }],
      ["assign", { command: "troupe signal done", message: "work", worktree: false }],
      ["spawn_agent", { command: "troupe signal done", worktree: false }],
    ] as const) expect(await mcp.call(name, args)).toMatchObject({ isError: true, text: refusal });
    expect((await agents()).map((a) => a.name)).toEqual(["planner"]);
    await planner.release();
  });

  test("messages: sent as the token says, read from the inbox once, pushed to a waiting wait_for_message; assign's worker reports to its supervisor", async () => {
    sb = new Sandbox();
    const boss = await identityAgent(sb, "boss");
    const other = await identityAgent(sb, "other");
    const person = await open();
    const mcp = await open(boss.env);

    // a message to an agent, read through its inbox: once
    const sent = await person.json<{ from: string; to: string }[]>("send_message", { to: "boss", text: "start with the schema" });
    expect(sent).toMatchObject([{ from: "user", to: "boss" }]);
    expect(await mcp.json<{ text: string; from: string }[]>("read_inbox")).toMatchObject([{ text: "start with the schema", from: "user" }]);
    expect(await mcp.json<unknown[]>("read_inbox")).toEqual([]);
    const all = await mcp.json<{ seq: number; text: string }[]>("read_inbox", { after: 0 });
    expect(all.map((m) => m.text)).toEqual(["start with the schema"]);

    // the sender is the token's agent, whatever its environment says it is
    const posing = await open({ ...boss.env, TROUPE_AGENT_ID: other.env.TROUPE_AGENT_ID, TROUPE_AGENT_NAME: "other" });
    await posing.json("send_message", { to: "user", text: "who sent this?" });
    expect(await person.json<{ fromId: string; text: string }[]>("read_inbox")).toMatchObject([{ fromId: boss.env.TROUPE_AGENT_ID, text: "who sent this?" }]);

    // a wait under way gets the message sent meanwhile
    const waiting = mcp.call("wait_for_message", { timeoutSeconds: 30 });
    await person.json("send_message", { to: "boss", text: "go" });
    expect(JSON.parse((await waiting).text)).toMatchObject([{ text: "go", from: "user" }]);
    expect(await mcp.json<unknown[]>("wait_for_message", { timeoutSeconds: 1 })).toEqual([]);

    // a worker assigned by boss reports to its supervisor, as its prompt tells it
    await mcp.json("assign", { command: 'troupe send --supervisor "backfill done" && troupe signal done', message: "backfill", worktree: false });
    expect(JSON.parse((await mcp.call("wait_for_message", { timeoutSeconds: 30 })).text)).toMatchObject([{ text: "backfill done" }]);

    const bad = await mcp.call("send_message", { to: "nobody", text: "hi" });
    expect(bad.isError).toBe(true);
    const empty = await mcp.call("send_message", { to: "user", text: "" });
    expect(empty.isError).toBe(true);
    await boss.release();
    await other.release();
  });
});
