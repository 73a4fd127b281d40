import type { OutputEvent } from "../src/protocol/output.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { allowedToolFlags, prefixAllowedTools } from "./allowed-tools.ts";
import { join } from "node:path";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import type { CommandInput, McpInjection, McpServerSpec, Provider, ProviderCommand } from "./types.ts";

/**
 * Google Gemini CLI, driven over the Agent Client Protocol (`gemini --acp`, checked against 0.61).
 * It refuses an untrusted folder, and a fresh worktree is never trusted, hence `--skip-trust`.
 */

/** troupe's (Claude Code's) tool names → Gemini CLI's. */
const GEMINI_TOOLS: Record<string, string> = {
  Bash: "run_shell_command",
  Edit: "replace",
  MultiEdit: "replace",
  Write: "write_file",
  Read: "read_file",
  Glob: "glob",
  Grep: "search_file_content",
  WebFetch: "web_fetch",
  WebSearch: "google_web_search",
};

/** Allow rules as Gemini CLI's `--allowed-tools` entries (providers/allowed-tools.ts). */
export const geminiAllowedTools = (rules: readonly string[]): string[] => prefixAllowedTools(rules, GEMINI_TOOLS);

/**
 * Over ACP (`gemini --acp`, checked with 0.61): session modes `default` (asks before tools),
 * `autoEdit`, `yolo` and `plan`; it loads a session it recorded (`loadSession`), though not in
 * the minute the session began (`buildResume`). Its headless stream-json output is still read
 * (`parseEvent`): sessions recorded before it ran over ACP.
 */
const GEMINI_ACP: AcpTransport = {
  argv: (input) => ["gemini", "--acp", "--skip-trust", ...allowedToolFlags(input, geminiAllowedTools(input.allowedTools ?? [])), ...(input.model ? ["--model", input.model] : [])],
  modes: { skip: "yolo", edits: "autoEdit", plan: "plan", ask: "default" },
};

const buildSpawn = (input: CommandInput): ProviderCommand => acpCommand(GEMINI_ACP, input);
/**
 * Gemini CLI (0.61) records a session in `chats/session-<UTC minute>-<id's first 8>.jsonl`, named
 * by the minute its recording starts. `session/load` starts a fresh recording under the loaded id
 * before it looks the session up, and the file of that recording is the session's own when the
 * minute is the one it began in: the `$set` of the fresh history (its `<session_context>` alone)
 * then wipes the messages, the lookup finds nothing to resume ("Invalid session identifier"), and
 * the file stays so. In a later minute the fresh recording goes to a file of its own and the load
 * works. So the runner starts the CLI no sooner than the minute after the session began.
 */
const buildResume = (input: CommandInput & { sessionId: string }): ProviderCommand =>
  acpCommand(GEMINI_ACP, input, { sessionId: input.sessionId, ...(input.sessionSeenAt !== undefined && { after: nextMinute(input.sessionSeenAt) }) });

/** The start of the clock minute after `ms`'s (epoch ms; the CLI names its files by the UTC minute). */
const nextMinute = (ms: number): number => (Math.floor(ms / 60_000) + 1) * 60_000;

/**
 * Gemini CLI has no flag for an MCP server: a settings file of its own, named by
 * GEMINI_CLI_SYSTEM_SETTINGS_PATH (checked with 0.61), merged over the person's ~/.gemini and the
 * project's settings, which stay untouched. It stands in for the machine's system settings file
 * (`/etc/gemini-cli/settings.json`) for this session. Values name the agent's variables (`$VAR`,
 * expanded by the CLI) so that no secret is written; `trust` skips confirmations headless runs cannot give.
 *
 * Its session cleanup is off: on every start 0.61 deletes each recorded session it finds nothing
 * to resume in, and with it every file whose name ends in the same 8 characters of id. Each
 * `session/load` leaves such a file (the fresh recording `buildResume` tells of), so the next start
 * of the CLI in the worktree would delete the session itself, and a second resume find nothing.
 */
const geminiMcp = systemSettingsMcp("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "gemini-settings.json", {}, { general: { sessionRetention: { enabled: false } } });

/**
 * The same for a CLI forked from Gemini CLI (Qwen Code): its own variable, the same settings, and
 * fields of its own for the server (`extra`) and for the settings (`more`).
 */
export function systemSettingsMcp(variable: string, fileName: string, extra: Record<string, unknown> = {}, more: Record<string, unknown> = {}): (server: McpServerSpec) => McpInjection {
  return (server) => {
    const file = join(server.inputDir, fileName);
    const env = Object.fromEntries(server.envNames.map((n) => [n, `$${n}`]));
    const settings = { ...more, mcpServers: { troupe: { command: server.command, args: server.args, env, timeout: server.toolTimeoutMs, trust: true, ...extra } } };
    return { args: [], env: { [variable]: file }, files: { [file]: `${JSON.stringify(settings, null, 2)}\n` } };
  };
}

function parseEvent(event: JsonObject): OutputEvent[] | null {
  switch (str(event.type)) {
    case "init": {
      const sessionId = str(event.session_id);
      return sessionId ? [{ kind: "session", sessionId, model: str(event.model) }] : null;
    }
    case "message": {
      // The CLI echoes the user's prompt first; only the assistant's words are output.
      if (str(event.role) !== "assistant") return [];
      const text = str(event.content);
      if (text === undefined) return null;
      // `delta: true` marks one streamed piece (a word or so) of the message.
      return [event.delta === true ? { kind: "text", text, delta: true } : { kind: "text", text }];
    }
    case "tool_use": {
      const name = str(event.tool_name);
      if (!name) return null;
      return [{ kind: "tool_use", id: str(event.tool_id), name, input: stringify(event.parameters) }];
    }
    case "tool_result": {
      const error = str(obj(event.error)?.message);
      const isError = str(event.status) !== "success";
      return [{ kind: "tool_result", id: str(event.tool_id), output: str(event.output) ?? error ?? "", isError }];
    }
    case "error": {
      const message = str(event.message);
      return message ? [{ kind: "error", message }] : null;
    }
    case "result": {
      const stats = obj(event.stats);
      const error = str(obj(event.error)?.message);
      const isError = str(event.status) !== "success";
      const result: OutputEvent = {
        kind: "result",
        isError,
        text: error,
        inputTokens: num(stats?.input_tokens),
        outputTokens: num(stats?.output_tokens),
      };
      return error ? [{ kind: "error", message: error }, result] : [result];
    }
    default:
      return null;
  }
}

const parseLine = withRunnerLines(jsonlStdout(parseEvent));

export const gemini: Provider = {
  name: "gemini",
  displayName: "Gemini CLI",
  binary: "gemini",
  install: "npm install -g @google/gemini-cli",
  permissionModes: acpModes(GEMINI_ACP),
  routesPermissions: true,
  transport: "acp",
  liveInput: acpLiveInput,
  provenWith: "0.61.0",
  npmPackage: "@google/gemini-cli",
  versionArgs: ["--version"],
  // The CLI keeps settings, OAuth credentials and sessions in $GEMINI_CLI_HOME/.gemini.
  accountEnv: "GEMINI_CLI_HOME",
  // its settings' tools.sandbox (docker, podman) could not start inside troupe's; the variable wins over them
  ownSandboxOff: { env: { GEMINI_SANDBOX: "false" } },
  api: { hosts: ["generativelanguage.googleapis.com:443", "cloudcode-pa.googleapis.com:443", "oauth2.googleapis.com:443"], urlEnv: ["GOOGLE_GEMINI_BASE_URL"] },
  tokenEnv: "GEMINI_API_KEY",
  home: [".gemini/"],
  credentialEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  buildSpawn,
  buildResume,
  resumeReadsSessionAge: true,
  // without -p Gemini CLI is interactive; --resume takes the session's id as the headless run does
  interactive: (input) => ({ argv: ["gemini", ...(input.model ? ["--model", input.model] : []), "--resume", input.sessionId] }),
  mcp: geminiMcp,
  parseLine,
  errorPatterns: [
    // a fixed refusal: running again cannot help
    { failure: "setup", pattern: /not running in a trusted directory|Unknown argument/i },
    {
      failure: "auth",
      pattern:
        /Invalid auth method selected|API key not valid|API_KEY_INVALID|PERMISSION_DENIED|UNAUTHENTICATED|status 401|status 403|Please set an Auth method|GEMINI_API_KEY environment variable not found|Failed to login/i,
    },
    {
      failure: "usage_limit",
      pattern: /RESOURCE_EXHAUSTED|status 429|Quota exceeded|quota limit|exhausted your (daily )?quota|usage limit|rate limit/i,
    },
    { failure: "overloaded", pattern: /Service Unavailable|status 503|status 500|\boverloaded\b|UNAVAILABLE/i },
    { failure: "timeout", pattern: /DEADLINE_EXCEEDED|timed out|ETIMEDOUT/i },
    {
      failure: "network",
      pattern: /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|getaddrinfo|socket hang up/i,
    },
    { failure: "crash", pattern: /FATAL ERROR|JavaScript heap out of memory|Segmentation fault|Maximum call stack/i },
  ],
};
