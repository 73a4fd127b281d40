/**
 * A Codex home (CODEX_HOME) for a test or a recording: a `config.toml` naming a fake Responses API
 * as its model provider, with no retries, so an offline Codex (the CLI, or Zed's codex-acp, which
 * embeds it) talks to 127.0.0.1 alone and fails at once where it fails.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeCodexConfig(codexHome: string, baseUrl: string, model = "gpt-5.5"): void {
  mkdirSync(codexHome, { recursive: true });
  const provider = `[model_providers.fake]\nname = "fake"\nbase_url = "${baseUrl}"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\nsupports_websockets = false\n`;
  writeFileSync(join(codexHome, "config.toml"), `model = "${model}"\nmodel_provider = "fake"\n\n${provider}`);
}
