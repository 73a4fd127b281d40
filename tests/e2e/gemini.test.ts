/**
 * The real Gemini CLI (from npm) under troupe, offline: a 127.0.0.1 stand-in for the Gemini API
 * answers the first turn with a shell tool call, which the CLI runs in the agent's worktree:
 * `troupe signal done` by the absolute path the prompt gives.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN } from "../support/sandbox.ts";
import { useCliSandbox } from "../support/cli-sandbox.ts";
import { startFakeGemini } from "../../scripts/fake-model-servers.ts";

const cli = useCliSandbox();

test("Gemini CLI runs the tool call in its worktree and ends with troupe signal done", async () => {
  const server = await startFakeGemini({ tool: { name: "run_shell_command", args: { command: `${BIN} signal done --result "gemini ran"` } }, answer: "Done." });
  const sb = cli.sandbox({ GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.url }, server);
  const account = join(sb.runtime, "gemini-account");
  mkdirSync(join(account, ".gemini"), { recursive: true });
  writeFileSync(join(account, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
  sb.env.GEMINI_CLI_HOME = account;
  await sb.json(["spawn", "--provider", "gemini", "--name", "gem", "--prompt", "Signal that you are done.", "--json"]);
  const a = await cli.ended(sb, "gem");
  expect(a).toMatchObject({ status: "done", result: "gemini ran" });
  expect(a.providerSessionId).toBeTruthy();
}, 120_000);
