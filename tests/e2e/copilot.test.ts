/**
 * The real Copilot CLI (from npm) under troupe, offline against a scripted OpenAI-compatible model on
 * 127.0.0.1 (BYOK, tests/support/chat-cli-troupe.ts), driven over the Agent Client Protocol
 * (`copilot --acp` under troupe's runner): the proving loop (a tool call and its result in `logs`, a
 * signal, a resume of the same session with the answer, through `session/load`), then what ACP gives
 * it: tool calls that wait for the person, a message taken as the next prompt, troupe's MCP tools,
 * its plan and edits modes, a failed model call's class, an agent that ends with its runner.
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

const t = useChatCliTroupe("copilot");

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
const rawLogs = async (sb: Sandbox, name: string) => (await sb.run(["logs", name, "--raw"])).stdout;

test("Copilot CLI runs the tool call in its worktree and ends with troupe signal done, its usage counted", async () => {
  const sb = await t.sandbox(runs(`troupe signal done --result "copilot ran"`, "Done."));
  await sb.json(["spawn", "--provider", "copilot", "--name", "cp", "--prompt", "Signal that you are done.", "--json"]);
  const a = await t.ended(sb, "cp");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "copilot ran" });
  expect(a.providerSessionId).toBeTruthy();
  // its answer to each prompt says the turn's tokens (ACP's `usage`); no cost
  expect(a.inputTokens).toBeGreaterThan(0);
  expect(a.outputTokens).toBeGreaterThan(0);
  const raw = await rawLogs(sb, "cp");
  expect(raw).toContain('{"acp":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"');
  expect(raw).toContain('"sessionUpdate":"tool_call_update"');
  // skip is its agent mode, the session's own: no mode is set
  expect(raw).not.toContain('"method":"session/set_mode"');
  expect(raw).not.toContain(sb.env.TROUPE_AGENT_TOKEN ?? "no token in the test's env");
}, 300_000);

test("Copilot CLI asks through troupe signal, is resumed with the answer in its session (session/load), and ends done", async () => {
  const sb = await proveLoop(t, "copilot");
  // the resume is the same session taken up again, its history replayed to troupe and not shown twice
  const raw = await rawLogs(sb, "styler");
  expect(raw.match(/"method":"session\/load"/g)).toHaveLength(1);
  expect(raw).toContain('"replay":true');
}, 600_000);

test("ask: the tool call waits for the person; allowed, it runs", async () => {
  const sb = await t.sandbox(runs("echo ran > marker.txt", "Ran it."));
  await sb.json(["spawn", "--provider", "copilot", "--name", "asker", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
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
  await sb.json(["spawn", "--provider", "copilot", "--name", "denied", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const d = await pending(sb);
  expect(await sb.run(["deny", d.id, "--reason", "not today"])).toMatchObject({ code: 0 });
  const b = await agentNamed(sb, "denied");
  // Copilot ends the turn on a rejection (as its own UI's "no" does): the model hears of it with the next prompt
  const raw = await waitFor("the denied agent's turn to end", async () => {
    const out = await rawLogs(sb, "denied");
    return out.includes('{"troupe":"turn"') ? out : undefined;
  }, 90_000);
  expect(existsSync(join(b.cwd, "marker.txt"))).toBe(false);
  expect(raw).toMatch(/"outcome":\{"outcome":"selected","optionId":"reject_once"\}/);
  expect((await sb.run(["logs", "denied"])).stdout).toContain("The user rejected this tool call.");
}, 300_000);

test("a rule decides a request without the person", async () => {
  // a chain, which no built-in rule for its own commands allows
  const sb = await t.sandbox(runs("echo ruled && troupe signal done --result ruled", "Done."));
  await sb.json(["spawn", "--provider", "copilot", "--name", "ruled", "--prompt", "Go.", "--permissions", "ask", "--allow", "Bash(echo ruled && troupe signal done --result ruled)", "--json"]);
  expect(await t.ended(sb, "ruled")).toMatchObject({ status: "done", result: "ruled" });
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({ status: "allowed", decidedBy: "rule" });
}, 300_000);

test("a message sent while the agent works is its next prompt, in the same ACP session", async () => {
  const sb = await t.sandbox(runs("sleep 4", "First part done.", [{ text: "PLEASE-FINISH", command: `troupe signal done --result "took the message"` }]));
  await sb.json(["spawn", "--provider", "copilot", "--name", "busy", "--prompt", "Start.", "--json"]);
  await waitFor("the first tool call to run", async () => ((await rawLogs(sb, "busy")).includes('"sessionUpdate":"tool_call"') ? true : undefined), 90_000);
  expect(await sb.run(["send", "busy", "PLEASE-FINISH now"])).toMatchObject({ code: 0 });
  const a = await t.ended(sb, "busy");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "took the message", session: 1 });
  const raw = await rawLogs(sb, "busy");
  // one session/new, two prompts into it
  expect(raw.match(/"method":"session\/new"/g)).toHaveLength(1);
  expect(raw.match(/"method":"session\/prompt"/g)).toHaveLength(2);
}, 300_000);

const spawnKid = { command: "troupe signal done --result kid", prompt: "be a kid", name: "kid", worktree: false };

test("Copilot CLI calls troupe's spawn_agent over MCP as itself: the kid is its child, the answer reaches the model", async () => {
  let toolAnswer: string | undefined;
  const sb = await t.sandbox((req) => {
    if (turnIndex(req) === 0) {
      const tool = req.tools.find((x) => /spawn_agent$/.test(x.name));
      return tool ? { tool: tool.name, args: spawnKid } : { text: `no spawn_agent among ${req.tools.map((x) => x.name).join(", ")}` };
    }
    if (turnIndex(req) === 1) {
      toolAnswer = contentText(req.messages.findLast((m) => m.role === "tool")?.content);
      return shell(req, `troupe signal done --result "spawned"`);
    }
    return { text: "Done." };
  });
  await sb.json(["spawn", "--provider", "copilot", "--name", "cpm", "--prompt", "Start a kid.", "--no-worktree", "--json"]);
  const parent = await t.ended(sb, "cpm");
  expect(parent, JSON.stringify(parent)).toMatchObject({ status: "done", result: "spawned" });
  const kid = await waitFor("the kid copilot spawned through MCP", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "kid" && a.status === "done"), 90_000);
  expect(kid.parentId).toBe(parent.id);
  expect(toolAnswer).toContain("kid");
}, 600_000);

test("plan: its plan mode is set (session/set_mode) and blocks a command that changes files; troupe signal still runs", async () => {
  const sb = await t.sandbox((req) => {
    const after = turnIndex(req);
    if (after === 0) return shell(req, "echo planned > marker.txt");
    if (after === 1) return shell(req, `troupe signal done --result "planned"`);
    return { text: "Done." };
  });
  await sb.json(["spawn", "--provider", "copilot", "--name", "planner", "--prompt", "Plan it.", "--permissions", "plan", "--json"]);
  const a = await t.ended(sb, "planner");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "planned" });
  expect(existsSync(join(a.cwd, "marker.txt"))).toBe(false);
  const raw = await rawLogs(sb, "planner");
  expect(raw).toContain('"method":"session/set_mode","params":{');
  expect(raw).toContain('"modeId":"https://agentclientprotocol.com/protocol/session-modes#plan"');
  expect(raw).toContain("Plan mode does not permit changes");
}, 300_000);

test("edits: a file is written unasked; a shell command Copilot asks about is denied by the runner, and the model hears of it", async () => {
  let worktree: (cwd: string) => void = () => {};
  const cwd = new Promise<string>((r) => (worktree = r));
  let told: string | undefined;
  const sb = await t.sandbox(async (req) => {
    // the turn ends on the rejection, without a signal: troupe resumes the session to ask for one
    if (!lastUserText(req).includes("Write it.")) {
      told = JSON.stringify(req.messages);
      return turnIndex(req) === 0 ? shell(req, `troupe signal done --result "told"`) : { text: "Done." };
    }
    if (turnIndex(req) === 0) return { tool: "create", args: { path: join(await cwd, "made.txt"), file_text: "made\n" } };
    return shell(req, "echo no > other.txt");
  });
  const spawned = await sb.json<Agent>(["spawn", "--provider", "copilot", "--name", "editor", "--prompt", "Write it.", "--permissions", "edits", "--no-worktree", "--json"]);
  worktree(spawned.cwd);
  const a = await t.ended(sb, "editor", 2);
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "told" });
  expect(readFileSync(join(a.cwd, "made.txt"), "utf8")).toBe("made\n");
  expect(existsSync(join(a.cwd, "other.txt"))).toBe(false);
  // the write asked no one; the command did, the runner answered (no rule allows it), and no person was asked
  const raw = await rawLogs(sb, "editor");
  expect(raw.match(/"method":"session\/request_permission"/g)).toHaveLength(1);
  expect((await sb.run(["logs", "editor"])).stdout).toContain("which asks no one, and no rule allows it");
  expect(await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).toEqual([]);
  expect(told).toContain("rejected");
}, 300_000);

test("a model call refused with 401 fails the agent as auth: Copilot's Error message over ACP is the evidence", async () => {
  const sb = await t.sandbox(() => ({ status: 401, body: { error: { message: "Incorrect API key provided: test.", type: "invalid_request_error" } } }));
  await sb.json(["spawn", "--provider", "copilot", "--name", "unauth", "--prompt", "Go.", "--json"]);
  const a = await t.ended(sb, "unauth");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "failed", failure: { class: "auth" } });
  expect(a.failure?.evidence).toContain("HTTP 401");
}, 300_000);

test("kill -9 of the runner ends the agent and the tool it runs", async () => {
  const sb = await t.sandbox(runs("sleep 93", "never"));
  await sb.json(["spawn", "--provider", "copilot", "--name", "orphan", "--prompt", "Wait.", "--json"]);
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
