/**
 * How each CLI that speaks to an OpenAI-compatible Chat Completions API is pointed at the fake
 * one (scripts/fake-chat-completions.ts) in a fresh home folder, offline: the variables and
 * files a person would set up for a model endpoint of their own. Shared by the fixture recorder
 * and the e2e tests, so both run the CLIs the same way.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_MODEL } from "./fake-chat-completions.ts";
import { runSync } from "./lib/process.ts";
import { writeCodexConfig } from "./codex-home.ts";

export const CHAT_CLIS = ["opencode", "kilo", "copilot", "qwen", "cline", "pi", "codex-acp"] as const;
export type ChatCli = (typeof CHAT_CLIS)[number];

/** opencode and Kilo: a provider of their config over @ai-sdk/openai-compatible (bundled in the binary), its model priced (US dollars per million tokens) and its context limited, as a real one is: over ACP they report a session's cost only then. */
function openCodeConfig(dir: string, url: string): string {
  const file = join(dir, "opencode.json");
  const provider = { npm: "@ai-sdk/openai-compatible", name: "Fake", options: { baseURL: url, apiKey: "test" }, models: { [FAKE_MODEL]: { name: "Fake model", cost: { input: 3, output: 15 }, limit: { context: 200000, output: 8192 } } } };
  writeFileSync(file, JSON.stringify({ autoupdate: false, share: "disabled", model: `fake/${FAKE_MODEL}`, provider: { fake: provider } }));
  return file;
}

/**
 * The environment that points `cli` at `url` with its state under `home` (made here). `bin` is the
 * folder holding the CLIs, for the one setup step that runs one (`cline auth`).
 */
export async function chatCliEnv(cli: ChatCli, url: string, home: string, bin: string): Promise<Record<string, string>> {
  const dir = join(home, cli);
  mkdirSync(dir, { recursive: true });
  switch (cli) {
    case "opencode":
      return { OPENCODE_CONFIG: openCodeConfig(dir, url), OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1" };
    case "kilo":
      // with its telemetry on, an offline run never exits: it keeps flushing to PostHog
      return { KILO_CONFIG: openCodeConfig(dir, url), KILO_DISABLE_AUTOUPDATE: "1", KILO_DISABLE_MODELS_FETCH: "1", KILO_TELEMETRY_LEVEL: "off" };
    case "copilot":
      // BYOK: GitHub is never asked, nothing else is reached
      return { COPILOT_HOME: dir, COPILOT_OFFLINE: "true", COPILOT_PROVIDER_BASE_URL: url, COPILOT_PROVIDER_API_KEY: "test", COPILOT_MODEL: FAKE_MODEL };
    case "qwen":
      return { QWEN_HOME: dir, OPENAI_BASE_URL: url, OPENAI_API_KEY: "test", OPENAI_MODEL: FAKE_MODEL };
    case "cline": {
      // its settings hold the provider: `cline auth` writes them, as a person would; over ACP it
      // starts a session only with a key and a provider named (its base URL read from the settings)
      const env = { CLINE_DATA_DIR: dir };
      const auth = runSync([join(bin, "cline"), "auth", "-p", "openai", "-k", "test", "-m", FAKE_MODEL, "-b", url], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...env },
      });
      if (auth.exitCode !== 0) throw new Error(`cline auth failed: ${auth.stderr}${auth.stdout}`);
      return { ...env, CLINE_PROVIDER: "openai-compatible", CLINE_API_KEY: "test" };
    }
    case "pi":
      writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { fake: { baseUrl: url, api: "openai-completions", apiKey: "test", models: [{ id: FAKE_MODEL, cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } }] } } }));
      writeFileSync(join(dir, "settings.json"), JSON.stringify({ defaultProvider: "fake", defaultModel: FAKE_MODEL }));
      return { PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1" };
    case "codex-acp": {
      // the Responses API of the same fake; Codex will not make its sandbox's helpers under the
      // temporary folder, where the test's home is: TMPDIR names another
      const tmp = join(home, "tmp");
      mkdirSync(tmp, { recursive: true });
      writeCodexConfig(dir, url, FAKE_MODEL);
      return { CODEX_HOME: dir, OPENAI_API_KEY: "test", TMPDIR: tmp };
    }
  }
}
