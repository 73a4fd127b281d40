import { CODEX_ERROR_PATTERNS, CODEX_SANDBOX, codexMcp, overrides, withoutOwnSandbox } from "./codex.ts";
import { jsonlStdout } from "./json-line.ts";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import type { PermissionMode, Provider } from "./types.ts";

/**
 * Codex over the Agent Client Protocol, through Zed's adapter `codex-acp` (checked against 0.16.0),
 * which embeds its own Codex (codex-rs at git f221438), not the `codex` CLI on PATH: what the
 * headless `codex exec` cannot do, it can. It asks before a command (`session/request_permission`),
 * takes prompts between turns, writes its plan with `update_plan` (ACP `plan` updates) and loads
 * the sessions it recorded. It reads `~/.codex/config.toml` (CODEX_HOME) as the CLI does, and the
 * same `-c key=TOML` overrides.
 *
 * Its session modes are approval presets that none of troupe's `ask` is: read-only and auto ask
 * only when the model requests more than the sandbox gives. So every mode is set by overrides,
 * and none by `session/set_mode`: `ask` is the policy `untrusted`, which asks before every command
 * Codex does not know to be read-only; the sandboxes are the CLI's (providers/codex.ts
 * CODEX_SANDBOX: with network, or `troupe signal` could not reach troupe).
 * It reports the context window's use, not a turn's tokens, and no cost.
 */
const POLICY: Record<PermissionMode, string[]> = {
  skip: ["approval_policy=\"never\"", "sandbox_mode=\"danger-full-access\""],
  edits: ["approval_policy=\"never\"", ...CODEX_SANDBOX.workspaceWrite],
  plan: ["approval_policy=\"never\"", ...CODEX_SANDBOX.readOnly],
  ask: ["approval_policy=\"untrusted\"", ...CODEX_SANDBOX.workspaceWrite],
};

const CODEX_ACP: AcpTransport = {
  argv: (input) => ["codex-acp", ...overrides(POLICY[input.permissions]), ...(input.model ? overrides([`model=${JSON.stringify(input.model)}`]) : [])],
  modes: { skip: null, edits: null, plan: null, ask: null },
};

export const codexAcp: Provider = {
  name: "codex-acp",
  displayName: "Codex (ACP)",
  binary: "codex-acp",
  install: "npm install -g @zed-industries/codex-acp",
  npmPackage: "@zed-industries/codex-acp",
  provenWith: "0.16.0",
  // its build's Codex: the commit of codex-rs its binary was built from (no version of Codex's is in it)
  adapterOf: { cli: "Codex", version: "codex-rs f221438" },
  // it has no version flag: its version is its npm package's
  versionArgs: [],
  permissionModes: acpModes(CODEX_ACP),
  routesPermissions: true,
  transport: "acp",
  liveInput: acpLiveInput,
  reportsPlan: true,
  accountEnv: "CODEX_HOME",
  api: { hosts: ["api.openai.com:443", "chatgpt.com:443"], urlEnv: ["OPENAI_BASE_URL"] },
  // the adapter reads CODEX_API_KEY only through ACP `authenticate`, which troupe does not call: an account is a CODEX_HOME
  tokenEnv: null,
  ownSandboxOff: { argv: withoutOwnSandbox },
  home: [".codex/"],
  credentialEnv: ["OPENAI_API_KEY", "CODEX_API_KEY"],
  buildSpawn: (input) => acpCommand(CODEX_ACP, input),
  buildResume: (input) => acpCommand(CODEX_ACP, input, { sessionId: input.sessionId }),
  // troupe's MCP server as the CLI gets it: its timeout and the agent's identity say more than session/new can
  mcp: codexMcp,
  // the Codex CLI's TUI takes up the sessions it records, where both are installed (one CODEX_HOME)
  interactive: (input) => ({ argv: ["codex", "resume", input.sessionId] }),
  // every line but the runner's (its stderr: Codex's tracing) is kept raw
  parseLine: withRunnerLines(jsonlStdout(() => null)),
  errorPatterns: CODEX_ERROR_PATTERNS,
};
