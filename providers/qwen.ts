import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { allowedToolFlags, prefixAllowedTools } from "./allowed-tools.ts";
import { streamJsonParser } from "./claude/parse.ts";
import { systemSettingsMcp } from "./gemini.ts";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import type { CommandInput, ErrorPattern, McpInjection, McpServerSpec, Provider } from "./types.ts";

/**
 * Qwen Code, driven over the Agent Client Protocol (`qwen --acp`, checked against 0.24.4), a fork of
 * Gemini CLI run as Gemini CLI is (providers/gemini.ts). A session starts in mode `auto` (a model
 * classifier approves calls; asks when it cannot): each permission mode sets its own, `default`
 * asking before every shell command and edit. It loads the sessions it recorded (`session/load`,
 * its history replayed), reports each model call's tokens in an update (src/acp/usage.ts), and
 * ends its turn when a call is rejected. It talks to an OpenAI-compatible API (OPENAI_BASE_URL,
 * OPENAI_API_KEY, OPENAI_MODEL) or its own OAuth login. Its headless stream-json (Claude Code's
 * shapes) is still read: sessions recorded before it ran over ACP.
 */

/** troupe's (Claude Code's) tool names → Qwen Code's. */
const QWEN_TOOLS: Record<string, string> = {
  Bash: "run_shell_command",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "write_file",
  Read: "read_file",
  Glob: "glob",
  Grep: "grep_search",
  WebFetch: "web_fetch",
};

/** Under auto-edit a shell command needs an allow: the agent's own troupe commands always have one (plan denies every command). */
export function qwenAllowedTools(input: CommandInput): string[] {
  const own = input.permissions === "edits" ? AGENT_OWN_COMMANDS.map((c) => `run_shell_command(troupe ${c})`) : [];
  return [...new Set([...own, ...prefixAllowedTools(input.allowedTools ?? [], QWEN_TOOLS)])];
}

const QWEN_ACP: AcpTransport = {
  argv: (input) => ["qwen", "--acp", ...allowedToolFlags(input, qwenAllowedTools(input)), ...(input.model ? ["--model", input.model] : [])],
  modes: { skip: "yolo", edits: "auto-edit", plan: "plan", ask: "default" },
};

/**
 * Gemini CLI's settings file for troupe's MCP server, under Qwen Code's name for the variable;
 * alwaysLoadTools: its tools are declared at once, not deferred behind tool_search. Over ACP it
 * connects MCP servers in the background, and the first prompt would go without troupe's tools:
 * QWEN_CODE_LEGACY_MCP_BLOCKING has `session/new` connect them first (checked with 0.24.4).
 */
function qwenMcp(server: McpServerSpec): McpInjection {
  const inj = systemSettingsMcp("QWEN_CODE_SYSTEM_SETTINGS_PATH", "qwen-settings.json", { alwaysLoadTools: true })(server);
  return { ...inj, env: { ...inj.env, QWEN_CODE_LEGACY_MCP_BLOCKING: "1" } };
}

/**
 * Matched against stderr, error events and result text ("[API Error: 401 ...]" headless; over ACP
 * the runner's line for the prompt's JSON-RPC error, "Internal error: 401 ..."); the first match wins.
 */
const QWEN_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /No input provided via stdin|Unknown argument|No saved session found|Invalid session|Resource not found: session:/i },
  { failure: "auth", pattern: /(?:API|Internal) Error: 40[13]\b|Incorrect API key|invalid api key|API key not valid|Unauthorized|Please set an Auth method|authentication failed/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|free allocated quota|Arrearage|insufficient balance/i },
  { failure: "rate_limit", pattern: /(?:API|Internal) Error: 429\b|rate limit|Throttling/i },
  { failure: "overloaded", pattern: /(?:API|Internal) Error: 5\d\d\b|overloaded|Service Unavailable/i },
  { failure: "timeout", pattern: /Request timed out|ETIMEDOUT|\btimed out\b/i },
  { failure: "network", pattern: /Connection error|fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up/i },
  { failure: "crash", pattern: /FATAL ERROR|JavaScript heap out of memory|Segmentation fault|Maximum call stack/i },
];

export const qwen: Provider = {
  name: "qwen",
  displayName: "Qwen Code",
  binary: "qwen",
  install: "npm install -g @qwen-code/qwen-code",
  npmPackage: "@qwen-code/qwen-code",
  provenWith: "0.24.4",
  versionArgs: ["--version"],
  permissionModes: acpModes(QWEN_ACP),
  routesPermissions: true,
  transport: "acp",
  liveInput: acpLiveInput,
  // settings, OAuth credentials and sessions (checked with 0.24.4: nothing under ~/.qwen then)
  accountEnv: "QWEN_HOME",
  // its whole-CLI sandbox (settings' tools.sandbox); the variable wins over them
  ownSandboxOff: { env: { QWEN_SANDBOX: "false" } },
  api: { hosts: ["dashscope.aliyuncs.com:443", "portal.qwen.ai:443", "chat.qwen.ai:443"], urlEnv: ["OPENAI_BASE_URL"] },
  tokenEnv: "OPENAI_API_KEY",
  home: [".qwen/"],
  credentialEnv: ["OPENAI_API_KEY", "DASHSCOPE_API_KEY"],
  buildSpawn: (input) => acpCommand(QWEN_ACP, input),
  buildResume: (input) => acpCommand(QWEN_ACP, input, { sessionId: input.sessionId }),
  mcp: qwenMcp,
  interactive: (input) => ({ argv: ["qwen", ...(input.model ? ["--model", input.model] : []), "--resume", input.sessionId] }),
  // its goal events and system notices (a retry, without its reason) carry nothing to show
  parseLine: withRunnerLines(streamJsonParser(QWEN_ERROR_PATTERNS, (event) => (event.type === "stream_event" || event.type === "system" ? [] : null))),
  errorPatterns: QWEN_ERROR_PATTERNS,
};
