/**
 * The real Gemini CLI (from npm) under troupe, offline: a 127.0.0.1 stand-in for the Gemini API
 * answers the first turn with a shell tool call, which the CLI runs in the agent's worktree:
 * `troupe signal done` by the absolute path the prompt gives.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { CLI_BIN } from "../support/cli-bin.ts";
import { startFakeGemini, type FakeServer } from "../../scripts/fake-model-servers.ts";
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
  Object.assign(sb.env, { HOME: home, PATH: `${CLI_BIN}:${process.env.PATH}`, ...env });
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

describe("Gemini CLI under troupe", () => {
  test("Gemini CLI runs the tool call in its worktree and ends with troupe signal done", async () => {
    server = startFakeGemini({ tool: { name: "run_shell_command", args: { command: `${BIN} signal done --result "gemini ran"` } }, answer: "Done." });
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
