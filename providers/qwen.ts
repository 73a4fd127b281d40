import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { prefixAllowedTools } from "./allowed-tools.ts";
import { streamJsonParser } from "./claude/parse.ts";
import { systemSettingsMcp } from "./gemini.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * Qwen Code, `qwen --output-format stream-json` (checked against 0.24.4): a fork of Gemini CLI
 * whose stream-json is Claude Code's (system init, assistant and user messages, result), read by
 * the same parser. The prompt goes on stdin, which a headless run reads when no prompt is given:
 * its positional prompt takes no `--`, and `--allowed-tools` would swallow it. It talks to an
 * OpenAI-compatible API (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) or its own OAuth login.
 */
function approvalMode(mode: PermissionMode): string {
  switch (mode) {
    case "skip":
      return "yolo";
    case "edits":
      return "auto-edit";
    case "plan":
      return "plan";
    case "ask":
      throw askRefused("Qwen Code (stream-json)");
  }
}

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

function command(input: CommandInput, resume: string[]): ProviderCommand {
  return {
    argv: [
      "qwen",
      "--output-format",
      "stream-json",
      "--approval-mode",
      approvalMode(input.permissions),
      // `=`: one value per flag
      ...qwenAllowedTools(input).map((t) => `--allowed-tools=${t}`),
      ...(input.model ? ["--model", input.model] : []),
      ...resume,
    ],
    stdin: input.prompt,
  };
}

/** Matched against stderr, error events and result text ("[API Error: 401 ...]"); the first match wins. */
const QWEN_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /No input provided via stdin|Unknown argument|No saved session found|Invalid session/i },
  { failure: "auth", pattern: /API Error: 40[13]\b|Incorrect API key|invalid api key|API key not valid|Unauthorized|Please set an Auth method|authentication failed/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|free allocated quota|Arrearage|insufficient balance/i },
  { failure: "rate_limit", pattern: /API Error: 429\b|rate limit|Throttling/i },
  { failure: "overloaded", pattern: /API Error: 5\d\d\b|overloaded|Service Unavailable/i },
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
  permissionModes: ["skip", "edits", "plan"],
  // settings, OAuth credentials and sessions (checked with 0.24.4: nothing under ~/.qwen then)
  accountEnv: "QWEN_HOME",
  tokenEnv: "OPENAI_API_KEY",
  credentialEnv: ["OPENAI_API_KEY", "DASHSCOPE_API_KEY"],
  buildSpawn: (input) => command(input, []),
  buildResume: (input) => command(input, ["--resume", input.sessionId]),
  // Gemini CLI's settings file for troupe's MCP server, under Qwen Code's name for the variable;
  // alwaysLoadTools: its tools are declared at once, not deferred behind tool_search (checked with 0.24.4)
  mcp: systemSettingsMcp("QWEN_CODE_SYSTEM_SETTINGS_PATH", "qwen-settings.json", { alwaysLoadTools: true }),
  interactive: (input) => ({ argv: ["qwen", ...(input.model ? ["--model", input.model] : []), "--resume", input.sessionId] }),
  // its goal events and system notices (a retry, without its reason) carry nothing to show
  parseLine: streamJsonParser(QWEN_ERROR_PATTERNS, (event) => (event.type === "stream_event" || event.type === "system" ? [] : null)),
  errorPatterns: QWEN_ERROR_PATTERNS,
};
