/**
 * The real Codex and Gemini CLIs (from npm) under troupe, offline: a 127.0.0.1 stand-in for
 * each model API answers the first turn with a shell tool call, which the CLI runs in the
 * agent's worktree: `troupe signal done` by the absolute path the prompt gives, as a model
 * would (Codex runs tools in a login shell, whose profile resets PATH).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BIN, ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { startFakeGemini, startFakeOpenAI, type FakeServer } from "../../scripts/fake-model-servers.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
let server: FakeServer | undefined;
afterEach(async () => {
  server?.stop();
  await sb?.close();
});

function cliSandbox(env: Record<string, string>): Sandbox {
  sb = new Sandbox();
  const home = join(sb.runtime, "home");
  mkdirSync(home, { recursive: true });
  Object.assign(sb.env, { HOME: home, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, ...env });
  return sb;
}

async function ended(name: string): Promise<Agent> {
  return waitFor(
    `${name} to end`,
    async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
      return a && ["done", "failed", "waiting"].includes(a.status) ? a : undefined;
    },
    90_000,
  );
}

describe("other real agent CLIs under troupe", () => {
  test("Codex runs the tool call in its worktree and ends with troupe signal done", async () => {
    server = await startFakeOpenAI({ command: `${BIN} signal done --result "codex ran in $(basename "$PWD")"`, answer: "Done." });
    cliSandbox({ OPENAI_API_KEY: "test" });
    const codexHome = join(sb.runtime, "codex-home");
    mkdirSync(codexHome, { recursive: true });
    sb.env.CODEX_HOME = codexHome;
    writeFileSync(
      join(codexHome, "config.toml"),
      `model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${server.url}"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\nsupports_websockets = false\n`,
    );
    await sb.json(["spawn", "--provider", "codex", "--name", "cody", "--prompt", "Signal that you are done.", "--json"]);
    const a = await ended("cody");
    expect(a).toMatchObject({ status: "done", result: "codex ran in cody" });
    expect(a.providerSessionId).toBeTruthy();
    expect(a.inputTokens).toBeGreaterThan(0);
    // the tool call as the log shows it: the build's own name (troupe, troupe-deno) and the command
    expect((await sb.run(["logs", "cody"])).stdout).toContain(`${basename(BIN)} signal done`);
  }, 120_000);

  test("Gemini CLI runs the tool call in its worktree and ends with troupe signal done", async () => {
    server = await startFakeGemini({ tool: { name: "run_shell_command", args: { command: `${BIN} signal done --result "gemini ran"` } }, answer: "Done." });
    cliSandbox({ GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.url });
    const account = join(sb.runtime, "gemini-account");
    mkdirSync(join(account, ".gemini"), { recursive: true });
    writeFileSync(join(account, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
    sb.env.GEMINI_CLI_HOME = account;
    await sb.json(["spawn", "--provider", "gemini", "--name", "gem", "--prompt", "Signal that you are done.", "--json"]);
    const a = await ended("gem");
    expect(a).toMatchObject({ status: "done", result: "gemini ran" });
    expect(a.providerSessionId).toBeTruthy();
  }, 120_000);
});
