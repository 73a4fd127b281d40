import { describe, expect, test } from "bun:test";
import { claude } from "../../providers/claude/provider.ts";
import { codex } from "../../providers/codex.ts";
import { gemini } from "../../providers/gemini.ts";
import { withAccount } from "../../src/accounts/env.ts";
import type { StoredAccount } from "../../src/accounts/select.ts";

const base: StoredAccount = { id: "acct_1", name: "a", provider: "claude", kind: "token", token: null, configDir: null, env: null, exhaustedUntil: null, windows: [], refused: null, lastUsedAt: null, createdAt: 0 };
const SPAWNING = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  ANTHROPIC_API_KEY: "shell-anthropic",
  ANTHROPIC_AUTH_TOKEN: "shell-auth",
  CLAUDE_CODE_OAUTH_TOKEN: "shell-oauth",
  OPENAI_API_KEY: "shell-openai",
  CODEX_API_KEY: "shell-codex",
  GEMINI_API_KEY: "shell-gemini",
  GOOGLE_API_KEY: "shell-google",
};

describe("an account's credential replaces the provider's in the spawning environment", () => {
  test("claude: a token is CLAUDE_CODE_OAUTH_TOKEN, and no API key of the shell stays", () => {
    const env = withAccount(claude, { ...base, token: "acct-token" }, SPAWNING);
    expect(env.CLAUDE_CODE_OAUTH_TOKEN).toBe("acct-token");
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    // other providers' keys and everything else stay
    expect(env).toMatchObject({ PATH: "/usr/bin", HOME: "/home/u", OPENAI_API_KEY: "shell-openai" });
  });

  test("claude: a config folder is CLAUDE_CONFIG_DIR, with no token of the shell", () => {
    const env = withAccount(claude, { ...base, kind: "config-dir", configDir: "/acct/claude" }, SPAWNING);
    expect(env.CLAUDE_CONFIG_DIR).toBe("/acct/claude");
    for (const k of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"]) expect(env[k]).toBeUndefined();
  });

  test("codex: CODEX_HOME or CODEX_API_KEY; the shell's OpenAI keys go", () => {
    const home = withAccount(codex, { ...base, provider: "codex", kind: "config-dir", configDir: "/acct/codex" }, SPAWNING);
    expect(home.CODEX_HOME).toBe("/acct/codex");
    expect(home.OPENAI_API_KEY).toBeUndefined();
    expect(home.CODEX_API_KEY).toBeUndefined();
    expect(home.ANTHROPIC_API_KEY).toBe("shell-anthropic");
    expect(withAccount(codex, { ...base, provider: "codex", token: "k" }, SPAWNING)).toMatchObject({ CODEX_API_KEY: "k" });
  });

  test("gemini: GEMINI_CLI_HOME or GEMINI_API_KEY; the shell's Google keys go", () => {
    const home = withAccount(gemini, { ...base, provider: "gemini", kind: "config-dir", configDir: "/acct/gemini" }, SPAWNING);
    expect(home.GEMINI_CLI_HOME).toBe("/acct/gemini");
    expect(home.GEMINI_API_KEY).toBeUndefined();
    expect(home.GOOGLE_API_KEY).toBeUndefined();
    expect(withAccount(gemini, { ...base, provider: "gemini", token: "g" }, SPAWNING).GEMINI_API_KEY).toBe("g");
  });

  test("an env account's variables are given as they are, after the shell's credentials are gone", () => {
    const env = withAccount(claude, { ...base, kind: "env", env: { ANTHROPIC_API_KEY: "acct-key", ANTHROPIC_BASE_URL: "https://proxy" } }, SPAWNING);
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: "acct-key", ANTHROPIC_BASE_URL: "https://proxy" });
    expect(env.CLAUDE_CODE_OAUTH_TOKEN).toBeUndefined();
  });
});
