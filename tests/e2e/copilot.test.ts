/**
 * The real Copilot CLI (from npm) under troupe, driven over the Agent Client Protocol (`copilot
 * --acp` under troupe's runner), offline against a scripted OpenAI-compatible model on 127.0.0.1
 * (BYOK): what every ACP-driven provider does (tests/support/acp-contract.ts), then what is its own:
 * its plan and edits modes, a failed model call's class.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { contentText, shell, turnIndex, type ChatRequest } from "../../scripts/fake-chat-completions.ts";
import { acpProviderContract } from "../support/acp-contract.ts";
import type { Sandbox } from "../support/sandbox.ts";

/** What is Copilot CLI's own besides: its plan and edits modes, a failed model call's class. */
const t = acpProviderContract({
  cli: "copilot",
  displayName: "Copilot CLI",
  acpProcess: "--acp",
  sleep: (s) => `sleep ${s}`,
  reportsTokens: true,
  reportsCost: false,
  reportsPlan: false,
  // it ends the turn on a rejection, as its own UI's "no" does
  deniedSays: /The user rejected this tool call\./,
});

const lastUserText = (req: ChatRequest) => contentText(req.messages.findLast((m) => m.role === "user")?.content);
const rawLogs = async (sb: Sandbox, name: string) => (await sb.run(["logs", name, "--raw"])).stdout;

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
