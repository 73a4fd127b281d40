import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { startFakeGemini } from "../../scripts/fake-model-servers.ts";
import { useCliSandbox } from "./cli-sandbox.ts";
import type { Sandbox } from "./sandbox.ts";

/** A tool call of the Gemini CLI's shell tool, as the scripted Gemini API returns it. */
export const shell = (command: string) => ({ name: "run_shell_command", args: { command } });

/**
 * The real Gemini CLI (from npm) under troupe, offline: each sandbox gets its own 127.0.0.1
 * stand-in for the Gemini API (scripts/fake-model-servers.ts) and an account folder that selects
 * API-key auth. Call it once at a test file's top level: sandbox and server close after each test.
 */
export function useGeminiTroupe(opts: { sandboxed?: boolean } = {}) {
  const cli = useCliSandbox(opts);
  return {
    ...cli,
    /**
     * `settingsRead`: the workspace outside the system's temp folder, so that the CLI reads the
     * settings file troupe gives it (0.61 skips one below a folder others may write, such as /tmp).
     */
    async sandbox(opts: Parameters<typeof startFakeGemini>[0], settingsRead = false): Promise<Sandbox> {
      const server = await startFakeGemini(opts);
      const sb = cli.sandbox({ GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.url }, server, settingsRead ? join(homedir(), ".cache") : undefined);
      const account = join(sb.runtime, "gemini-account");
      mkdirSync(join(account, ".gemini"), { recursive: true });
      writeFileSync(join(account, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
      sb.env.GEMINI_CLI_HOME = account;
      return sb;
    },
  };
}

export { agentNamed, pending } from "./agent-queries.ts";
