/**
 * The real Cline CLI (from npm) under troupe, offline against a scripted OpenAI-compatible model
 * on 127.0.0.1 (tests/support/chat-cli-troupe.ts), driven over the Agent Client Protocol (`cline
 * --acp` under troupe's runner): the proving loop (a tool call and its result in `logs`, a signal,
 * a resume of the same session with the answer, which Cline's headless mode cannot give), then
 * what ACP gives it: tool calls that wait for the person, a message taken as the next prompt, an
 * agent that ends with its runner.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { contentText, shell, turnIndex, type ChatRequest, type ChatScript } from "../../scripts/fake-chat-completions.ts";
import { proveLoop, useChatCliTroupe } from "../support/chat-cli-troupe.ts";
import { pidsIn } from "../support/processes.ts";
import { type Sandbox, waitFor } from "../support/sandbox.ts";

const t = useChatCliTroupe("cline");

const lastUserText = (req: ChatRequest) => contentText(req.messages.findLast((m) => m.role === "user")?.content);

/** The model: the first turn of each prompt runs `command` (or the command of the first `on` whose text the prompt holds), then it says `answer`. */
function runs(command: string, answer: string, on: { text: string; command: string }[] = []): ChatScript {
  return (req) => {
    if (turnIndex(req) > 0) return { text: answer };
    const said = lastUserText(req);
    return shell(req, on.find((o) => said.includes(o.text))?.command ?? command);
  };
}

const agentNamed = async (sb: Sandbox, name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name)!;
const pending = (sb: Sandbox) => waitFor("a pending permission request", async () => (await sb.json<PermissionRequest[]>(["permissions", "--json"]))[0], 90_000);

test("Cline runs the tool call in its worktree and ends with troupe signal done; it reports no usage over ACP", async () => {
  const sb = await t.sandbox(runs(`troupe signal done --result "cline ran"`, "Done."));
  await sb.json(["spawn", "--provider", "cline", "--name", "cli", "--prompt", "Signal that you are done.", "--json"]);
  const a = await t.ended(sb, "cli");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "cline ran" });
  expect(a.providerSessionId).toBeTruthy();
  // its `usage` events are dropped by its ACP side: no update or answer carries tokens
  expect(a.inputTokens ?? 0).toBe(0);
  const logs = (await sb.run(["logs", "cli"])).stdout;
  expect(logs).toContain("troupe signal done");
  expect(logs).toContain("⎿");
  const raw = (await sb.run(["logs", "cli", "--raw"])).stdout;
  expect(raw).toContain('{"acp":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"');
  // skip approves every call in Cline itself: nothing is asked
  expect(raw).not.toContain("session/request_permission");
}, 300_000);

test("Cline asks through troupe signal, is resumed with the answer in its session (session/load), and ends done", () => proveLoop(t, "cline"), 600_000);

test("ask: the tool call waits for the person; allowed, it runs", async () => {
  const sb = await t.sandbox(runs("echo ran > marker.txt", "Ran it."));
  await sb.json(["spawn", "--provider", "cline", "--name", "asker", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const r = await pending(sb);
  expect(r).toMatchObject({ agentName: "asker", toolName: "Bash", status: "pending" });
  expect(String(r.input.command)).toBe("echo ran > marker.txt");
  const a0 = await agentNamed(sb, "asker");
  expect(existsSync(join(a0.cwd, "marker.txt"))).toBe(false);
  expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
  await waitFor("the allowed call to run", () => (existsSync(join(a0.cwd, "marker.txt")) ? true : undefined), 60_000);
  expect(readFileSync(join(a0.cwd, "marker.txt"), "utf8")).toBe("ran\n");
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({ status: "allowed", decidedBy: "person" });
}, 300_000);

test("ask: a denied tool call does not run, and the agent is told", async () => {
  const sb = await t.sandbox(runs("echo ran > marker.txt", "Stopped."));
  await sb.json(["spawn", "--provider", "cline", "--name", "denied", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const d = await pending(sb);
  expect(await sb.run(["deny", d.id, "--reason", "not today"])).toMatchObject({ code: 0 });
  const b = await agentNamed(sb, "denied");
  const raw = await waitFor("the denied agent's turn to end", async () => {
    const out = (await sb.run(["logs", "denied", "--raw"])).stdout;
    return out.includes('{"troupe":"turn"') ? out : undefined;
  }, 90_000);
  expect(existsSync(join(b.cwd, "marker.txt"))).toBe(false);
  expect(raw).toMatch(/"outcome":\{"outcome":"selected","optionId":"reject_once"\}/);
  // the model hears of it: the call's result, in the request after it, says it was not run
  const after = t.server.mainRequests.at(-1)!;
  expect(after.messages.at(-1)?.role).toBe("tool");
  expect(contentText(after.messages.at(-1)?.content)).toMatch(/denied|rejected|not approved/i);
}, 300_000);

test("a rule decides a request without the person, and the agent's own troupe command needs none", async () => {
  // nothing written in the worktree: an uncommitted file would have troupe resume the agent to commit it
  const steps = ["echo ruled", "troupe signal done --result ruled"];
  const sb = await t.sandbox((req) => (turnIndex(req) < steps.length ? shell(req, steps[turnIndex(req)]!) : { text: "Done." }));
  await sb.json(["spawn", "--provider", "cline", "--name", "ruled", "--prompt", "Go.", "--permissions", "ask", "--allow", "Bash(echo ruled)", "--json"]);
  const a = await t.ended(sb, "ruled");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "ruled" });
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  // Cline asks about both calls: the spawn's rule allows the first, troupe's built-in one the signal
  expect(all.map((r) => [r.status, r.decidedBy, r.rule])).toEqual([
    ["allowed", "rule", "Bash(echo ruled)"],
    ["allowed", "rule", "Bash(troupe signal *)"],
  ]);
}, 300_000);

test("a message sent while the agent works is its next prompt, in the same ACP session", async () => {
  const sb = await t.sandbox(runs("sleep 4", "First part done.", [{ text: "PLEASE-FINISH", command: `troupe signal done --result "took the message"` }]));
  await sb.json(["spawn", "--provider", "cline", "--name", "busy", "--prompt", "Start.", "--json"]);
  await waitFor("the first tool call to run", async () => ((await sb.run(["logs", "busy", "--raw"])).stdout.includes('"sessionUpdate":"tool_call"') ? true : undefined), 90_000);
  expect(await sb.run(["send", "busy", "PLEASE-FINISH now"])).toMatchObject({ code: 0 });
  const a = await t.ended(sb, "busy");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "took the message", session: 1 });
  const raw = (await sb.run(["logs", "busy", "--raw"])).stdout;
  // one session/new, two prompts into it
  expect(raw.match(/"method":"session\/new"/g)).toHaveLength(1);
  expect(raw.match(/"method":"session\/prompt"/g)).toHaveLength(2);
}, 300_000);

test("kill -9 of the runner ends the agent and the tool it runs", async () => {
  const sb = await t.sandbox(runs("sleep 93", "never"));
  await sb.json(["spawn", "--provider", "cline", "--name", "orphan", "--prompt", "Wait.", "--json"]);
  const a = await agentNamed(sb, "orphan");
  // its runner: the acp-run process working in the agent's worktree
  const runner = await waitFor("the runner", () => {
    const mine = pidsIn(a.cwd, "acp-run");
    return mine.length ? mine : undefined;
  }, 30_000);
  await waitFor("the tool to run", () => (pidsIn(a.cwd, "sleep 93").length ? true : undefined), 90_000);
  expect(pidsIn(a.cwd, "--acp").length).toBeGreaterThan(0);
  for (const pid of runner) process.kill(pid, "SIGKILL");
  await waitFor("the agent and its tool to be gone", () => (pidsIn(a.cwd, "sleep 93").length === 0 && pidsIn(a.cwd, "--acp").length === 0 ? true : undefined), 15_000);
}, 300_000);
