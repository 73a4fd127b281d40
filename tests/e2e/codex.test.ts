/**
 * The real Codex CLI (from npm) under troupe, offline: a 127.0.0.1 stand-in for its model API
 * answers the first turn with a shell tool call, which the CLI runs in the agent's worktree:
 * `troupe signal done` by the absolute path the prompt gives, as a model would (Codex runs tools
 * in a login shell, whose profile resets PATH).
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BIN } from "../support/sandbox.ts";
import { useCliSandbox } from "../support/cli-sandbox.ts";
import { startFakeOpenAI } from "../../scripts/fake-model-servers.ts";

const cli = useCliSandbox();

test("Codex runs the tool call in its worktree and ends with troupe signal done", async () => {
  const server = await startFakeOpenAI({ command: `${BIN} signal done --result "codex ran in $(basename "$PWD")"`, answer: "Done." });
  const sb = cli.sandbox({ OPENAI_API_KEY: "test" }, server);
  const codexHome = join(sb.runtime, "codex-home");
  mkdirSync(codexHome, { recursive: true });
  sb.env.CODEX_HOME = codexHome;
  writeFileSync(
    join(codexHome, "config.toml"),
    `model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${server.url}"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\nsupports_websockets = false\n`,
  );
  await sb.json(["spawn", "--provider", "codex", "--name", "cody", "--prompt", "Signal that you are done.", "--json"]);
  const a = await cli.ended(sb, "cody");
  expect(a).toMatchObject({ status: "done", result: "codex ran in cody" });
  expect(a.providerSessionId).toBeTruthy();
  expect(a.inputTokens).toBeGreaterThan(0);
  // the tool call as the log shows it: the build's own name (troupe, troupe-deno) and the command
  expect((await sb.run(["logs", "cody"])).stdout).toContain(`${basename(BIN)} signal done`);
}, 120_000);
