import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { contentText, shell, turnIndex, writeTodos, type ChatRequest, type ChatScript, type Todo } from "../../scripts/fake-chat-completions.ts";
import { proveLoop, useChatCliTroupe, type ChatCliTroupe } from "./chat-cli-troupe.ts";
import type { ChatCli } from "../../scripts/chat-cli-setup.ts";
import { agentNamed, pending as firstPending } from "./agent-queries.ts";
import { alive, pidsIn } from "./processes.ts";
import { type Sandbox, waitFor } from "./sandbox.ts";
import { Terminal } from "./terminal.ts";

/**
 * What every agent CLI driven over the Agent Client Protocol does under troupe, proven with the
 * real CLI offline against the scripted OpenAI-compatible model (tests/support/chat-cli-troupe.ts):
 * one e2e file per provider calls `acpProviderContract` with what is its own.
 */
export interface AcpProvider {
  cli: ChatCli;
  /** As the output names it. */
  displayName: string;
  /** A text of the ACP agent's command line (`--acp`, ` acp --`), to find its process. */
  acpProcess: string;
  /** A shell command that takes `seconds`, as the CLI lets its model run one (Qwen Code wants a comment saying why it waits). */
  sleep(seconds: number): string;
  /** What `troupe logs` shows once a denied call's turn has gone on or ended: the agent was told. */
  deniedSays: RegExp;
  /** It reports a turn's tokens (Cline's ACP side drops its usage). */
  reportsTokens: boolean;
  /** It reports what a turn cost (opencode's usage updates), as `troupe providers` says. */
  reportsCost: boolean;
  /** Its plan reaches troupe (ACP plan updates, or its to-do tool's list), as `troupe providers` says. */
  reportsPlan: boolean;
  /** troupe's spawn_agent among its tools, by the name the CLI gives it (Cline has a spawn_agent of its own). */
  mcpTool?: RegExp;
}

const lastUserText = (req: ChatRequest) => contentText(req.messages.findLast((m) => m.role === "user")?.content);

/** The model: the first turn of each prompt runs `command` (or the command of the first `on` whose text the prompt holds), then it says `answer`. */
function runs(command: string, answer: string, on: { text: string; command: string }[] = []): ChatScript {
  return (req) => {
    if (turnIndex(req) > 0) return { text: answer };
    const said = lastUserText(req);
    return shell(req, on.find((o) => said.includes(o.text))?.command ?? command);
  };
}

/** The first pending request, within the 90 s these CLIs' tests have given it. */
const pending = (sb: Sandbox) => firstPending(sb, 90_000);

/** The option troupe chose in its answer to the agent's permission request, with the kind the agent gave it. */
function chosenOption(raw: string): { optionId: string; kind?: string } | undefined {
  const frames = raw.split("\n").filter((l) => l.startsWith('{"acp":')).map((l) => JSON.parse(l) as { acp: string; msg: Record<string, any> });
  const ask = frames.find((f) => f.acp === "recv" && f.msg.method === "session/request_permission");
  const answer = ask && frames.find((f) => f.acp === "send" && f.msg.id === ask.msg.id && f.msg.result);
  const optionId: string | undefined = answer?.msg.result?.outcome?.optionId;
  if (!optionId) return undefined;
  return { optionId, kind: (ask!.msg.params.options as { optionId: string; kind: string }[]).find((o) => o.optionId === optionId)?.kind };
}

/** Registers the contract's tests; returns the file's harness, for the tests that are the provider's own. */
export function acpProviderContract(p: AcpProvider): ChatCliTroupe {
  const t = useChatCliTroupe(p.cli);
  const name = p.displayName;

  test(`${name} runs the tool call in its worktree and ends with troupe signal done, ${p.reportsTokens ? "its usage counted" : "reporting no usage"}; the raw view is the ACP conversation`, async () => {
    const sb = await t.sandbox(runs(`troupe signal done --result "${p.cli} ran"`, "Done."));
    await sb.json(["spawn", "--provider", p.cli, "--name", "first", "--prompt", "Signal that you are done.", "--json"]);
    const a = await t.ended(sb, "first");
    expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: `${p.cli} ran` });
    expect(a.providerSessionId).toBeTruthy();
    if (p.reportsTokens) {
      expect(a.inputTokens).toBeGreaterThan(0);
      expect(a.outputTokens).toBeGreaterThan(0);
    } else expect(a.inputTokens ?? 0).toBe(0);
    if (p.reportsCost) expect(a.costUsd).toBeGreaterThan(0);
    else expect(a.costUsd).toBeNull();
    const logs = (await sb.run(["logs", "first"])).stdout;
    expect(logs).toMatch(/▸ execute\(.*troupe signal done/);
    const raw = (await sb.run(["logs", "first", "--raw"])).stdout;
    expect(raw).toContain('{"acp":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"');
    expect(raw).toContain('"sessionUpdate":"tool_call_update"');
    expect(raw).not.toContain(sb.env.TROUPE_AGENT_TOKEN ?? "no token in the test's env");
  }, 300_000);

  test(`${name} asks through troupe signal, is resumed with the answer in its session (session/load), and ends done`, async () => {
    const sb = await proveLoop(t, p.cli);
    // the resume is the same session taken up again, once
    expect((await sb.run(["logs", "styler", "--raw"])).stdout.match(/"method":"session\/load"/g)).toHaveLength(1);
  }, 600_000);

  test("ask: the tool call waits for the person; allowed, it runs", async () => {
    const sb = await t.sandbox(runs("echo ran > marker.txt", "Ran it."));
    await sb.json(["spawn", "--provider", p.cli, "--name", "asker", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
    const r = await pending(sb);
    expect(r).toMatchObject({ agentName: "asker", toolName: "Bash", status: "pending" });
    expect(String(r.input.command)).toContain("echo ran > marker.txt");
    const a0 = await agentNamed(sb, "asker");
    expect(existsSync(join(a0.cwd, "marker.txt"))).toBe(false);
    expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
    // the shell makes the file before it writes to it: the call has run once the file holds its line
    const marker = join(a0.cwd, "marker.txt");
    await waitFor("the allowed call to run", () => (existsSync(marker) && readFileSync(marker, "utf8") === "ran\n" ? true : undefined), 60_000);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: "allowed", decidedBy: "person" });
  }, 300_000);

  test("ask: a denied tool call does not run, and the agent is told", async () => {
    const sb = await t.sandbox(runs("echo ran > marker.txt", "Stopped."));
    await sb.json(["spawn", "--provider", p.cli, "--name", "denied", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
    const d = await pending(sb);
    expect(await sb.run(["deny", d.id, "--reason", "not today"])).toMatchObject({ code: 0 });
    const b = await agentNamed(sb, "denied");
    const raw = await waitFor("the denied agent's turn to end", async () => {
      const out = (await sb.run(["logs", "denied", "--raw"])).stdout;
      return out.includes('{"troupe":"turn"') ? out : undefined;
    }, 90_000);
    expect(existsSync(join(b.cwd, "marker.txt"))).toBe(false);
    expect(chosenOption(raw)?.kind).toBe("reject_once");
    expect((await sb.run(["logs", "denied"])).stdout).toMatch(p.deniedSays);
  }, 300_000);

  test("a rule decides a request without the person; the agent's own troupe commands are allowed by troupe's", async () => {
    const steps: ChatScript = (req) => (turnIndex(req) === 0 ? shell(req, "mkdir -p .troupe/ruled-by-rule") : turnIndex(req) === 1 ? shell(req, "troupe signal done --result ruled") : { text: "Done." });
    const sb = await t.sandbox(steps);
    await sb.json(["spawn", "--provider", p.cli, "--name", "ruled", "--prompt", "Go.", "--permissions", "ask", "--allow", "Bash(mkdir -p .troupe/ruled*)", "--json"]);
    const a = await t.ended(sb, "ruled");
    expect(a).toMatchObject({ status: "done", result: "ruled" });
    // a command that changes something (Qwen Code runs a read-only one without asking), under .troupe/ (never committed)
    expect(existsSync(join(a.cwd, ".troupe", "ruled-by-rule"))).toBe(true);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((r) => [r.status, r.decidedBy, r.rule])).toEqual([
      ["allowed", "rule", "Bash(mkdir -p .troupe/ruled*)"],
      ["allowed", "rule", "Bash(troupe signal *)"],
    ]);
  }, 300_000);

  test("a message sent while the agent works is its next prompt, in the same ACP session", async () => {
    const sb = await t.sandbox(runs(p.sleep(4), "First part done.", [{ text: "PLEASE-FINISH", command: `troupe signal done --result "took the message"` }]));
    await sb.json(["spawn", "--provider", p.cli, "--name", "busy", "--prompt", "Start.", "--json"]);
    await waitFor("the first tool call to run", async () => ((await sb.run(["logs", "busy", "--raw"])).stdout.includes('"troupe":"tool"') ? true : undefined), 90_000);
    expect(await sb.run(["send", "busy", "PLEASE-FINISH now"])).toMatchObject({ code: 0 });
    const a = await t.ended(sb, "busy");
    expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "took the message", session: 1 });
    const raw = (await sb.run(["logs", "busy", "--raw"])).stdout;
    // one session/new, two prompts into it
    expect(raw.match(/"method":"session\/new"/g)).toHaveLength(1);
    expect(raw.match(/"method":"session\/prompt"/g)).toHaveLength(2);
  }, 300_000);

  test("the agent calls troupe's spawn_agent over MCP as itself: the kid is its child, the tool's answer reaches the model", async () => {
    const kid = { command: "troupe signal done --result kid", prompt: "be a kid", name: "kid", worktree: false };
    let toolAnswer: string | undefined;
    const sb = await t.sandbox((req) => {
      if (turnIndex(req) === 0) {
        const tool = req.tools.find((x) => (p.mcpTool ?? /spawn_agent$/).test(x.name));
        return tool ? { tool: tool.name, args: kid } : { text: `no spawn_agent among ${req.tools.map((x) => x.name).join(", ")}` };
      }
      if (turnIndex(req) === 1) {
        toolAnswer = contentText(req.messages.findLast((m) => m.role === "tool")?.content);
        return shell(req, `troupe signal done --result "spawned"`);
      }
      return { text: "Done." };
    });
    await sb.json(["spawn", "--provider", p.cli, "--name", "parent", "--prompt", "Start a kid.", "--no-worktree", "--json"]);
    const parent = await t.ended(sb, "parent");
    expect(parent, JSON.stringify(parent)).toMatchObject({ status: "done", result: "spawned" });
    const child = await waitFor("the kid spawned through MCP", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "kid" && a.status === "done"), 90_000);
    expect(child.parentId).toBe(parent.id);
    expect(toolAnswer).toContain("kid");
  }, 300_000);

  if (p.reportsPlan) test("its plan (the list its to-do tool writes) is kept on the agent, shown on its row of the compiled dashboard (tmux) and in its output, each entry with its status", async () => {
    const first: Todo[] = [{ content: "Read the code", status: "in_progress" }, { content: "Write the fix", status: "pending" }];
    const then: Todo[] = [{ content: "Read the code", status: "completed" }, { content: "Write the fix", status: "in_progress" }];
    const sb = await t.sandbox((req) => {
      const turn = turnIndex(req);
      if (turn === 0) return writeTodos(req, first);
      if (turn === 1) return writeTodos(req, then);
      if (turn === 2) return shell(req, `troupe signal done --result planned`);
      return { text: "Done." };
    });
    const term = new Terminal(sb, 160, 30);
    await term.openDashboard();
    await sb.json(["spawn", "--provider", p.cli, "--name", "planner", "--prompt", "Plan, then signal done.", "--json"]);
    const a = await t.ended(sb, "planner");
    expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "planned" });
    expect(a.plan?.map((e) => [e.content, e.status])).toEqual(then.map((e) => [e.content, e.status]));
    const logs = (await sb.run(["logs", "planner"])).stdout;
    expect(logs).toContain("[>] Read the code");
    expect(logs).toContain("[x] Read the code");
    expect(logs).toContain("[>] Write the fix");
    await term.waitFor(/planner .*\[plan 1\/2: Write/);
  }, 300_000);

  test("ask in the compiled dashboard (tmux): the request is shown as a Bash request, a + enter allows it once, and it runs", async () => {
    const sb = await t.sandbox(runs("echo ran > marker.txt", "Ran it."));
    const term = new Terminal(sb, 100, 30);
    await term.openDashboard();
    await sb.json(["spawn", "--provider", p.cli, "--name", "dash", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
    const screen = await term.waitFor("$ echo ran > marker.txt", 90_000);
    expect(screen).toMatch(/! +dash/);
    expect(screen).toContain("dash asks to use Bash");
    const a = await agentNamed(sb, "dash");
    expect(existsSync(join(a.cwd, "marker.txt"))).toBe(false);
    term.keys("a");
    await term.waitFor("allow once");
    term.keys("Enter");
    await term.waitFor("allowed Bash once for dash");
    await waitFor("the allowed call to run", () => (existsSync(join(a.cwd, "marker.txt")) ? true : undefined), 60_000);
    await term.waitForNot(/! +dash/);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((r) => [r.status, r.decidedBy])).toEqual([["allowed", "person"]]);
  }, 300_000);

  test("kill -9 of the daemon mid-turn: the turn goes on, the request it makes with no daemon is filed once and allowed once, every output line stored once", async () => {
    let think!: () => void;
    const hold = new Promise<void>((r) => (think = r));
    const model = runs("echo ran > marker.txt", "Ran it.");
    const sb = await t.sandbox(async (req) => (await hold, model(req)));
    await sb.json(["spawn", "--provider", p.cli, "--name", "steady", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
    const a = await agentNamed(sb, "steady");
    const out = join(sb.dir, ".troupe", "logs", "steady", "1.out");
    await waitFor("the prompt to reach the agent", () => (existsSync(out) && readFileSync(out, "utf8").includes('"method":"session/prompt"') ? true : undefined), 90_000);
    const session = [...pidsIn(a.cwd, "acp-run"), ...pidsIn(a.cwd, p.acpProcess)];
    const killed = await sb.killDaemon();
    expect(session.filter(alive)).toEqual(session);
    // the model answers with its tool call only now: the runner finds no daemon to ask and starts one
    think();
    const r = await pending(sb);
    expect(await sb.daemonPid()).not.toBe(killed);
    expect(String(r.input.command)).toContain("echo ran > marker.txt");
    expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
    await waitFor("the allowed call to run", () => (existsSync(join(a.cwd, "marker.txt")) ? true : undefined), 60_000);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((x) => [x.id, x.status, x.decidedBy])).toEqual([[r.id, "allowed", "person"]]);
    await waitFor("the turn to end", () => (readFileSync(out, "utf8").includes('{"troupe":"turn"') ? true : undefined), 90_000);
    const stored = () => sb.run(["logs", "steady", "--raw", "--session", "1"]).then((x) => x.stdout);
    const file = readFileSync(out, "utf8");
    await waitFor("the daemon to store the session's lines", async () => ((await stored()).length >= file.length ? true : undefined), 30_000);
    const raw = await stored();
    expect(raw.split('"method":"session/prompt"').length - 1).toBe(1);
    expect(raw.split('"method":"session/request_permission"').length - 1).toBe(1);
    expect(chosenOption(raw)?.kind).toBe("allow_once");
    // each line of the file stored once, in its order (the file may have grown since it was read)
    expect(raw.startsWith(file)).toBe(true);
  }, 300_000);

  test("kill -9 of the runner ends the agent and the tool it runs", async () => {
    const sb = await t.sandbox(runs(p.sleep(93), "never"));
    await sb.json(["spawn", "--provider", p.cli, "--name", "orphan", "--prompt", "Wait.", "--json"]);
    const a = await agentNamed(sb, "orphan");
    // its runner: the acp-run process working in the agent's worktree
    const runner = await waitFor("the runner", () => {
      const mine = pidsIn(a.cwd, "acp-run");
      return mine.length ? mine : undefined;
    }, 30_000);
    await waitFor("the tool to run", () => (pidsIn(a.cwd, "sleep 93").length ? true : undefined), 90_000);
    expect(pidsIn(a.cwd, p.acpProcess).length).toBeGreaterThan(0);
    for (const pid of runner) process.kill(pid, "SIGKILL");
    await waitFor("the agent and its tool to be gone", () => (pidsIn(a.cwd, "sleep 93").length === 0 && pidsIn(a.cwd, p.acpProcess).length === 0 ? true : undefined), 15_000);
  }, 300_000);
  return t;
}
