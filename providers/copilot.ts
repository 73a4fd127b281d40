import { join } from "node:path";
import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import { httpFailure } from "./http-failure.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import type { ErrorPattern, FailureClass, McpInjection, McpServerSpec, PermissionMode, Provider } from "./types.ts";

/**
 * GitHub Copilot CLI, driven over the Agent Client Protocol (`copilot --acp`, checked against
 * 1.0.102). It runs on a GitHub login (COPILOT_HOME) or token, or on a model endpoint of one's own
 * (BYOK: COPILOT_PROVIDER_BASE_URL, with COPILOT_OFFLINE=true nothing else is reached), over ACP as
 * headless. Its session modes are ACP's own URIs (`…/session-modes#agent`, `#plan`, `#autopilot`);
 * `agent` asks before every shell command and edit, `plan` blocks a command that would change files
 * and asks about the rest, so `--allow-all` and `--allow-tool` say what runs unasked. It loads its
 * sessions at once (history replayed), answers each prompt with its tokens (`usage`), and ends its
 * turn when a call is rejected. Its headless JSONL (`--output-format json`) is still read: sessions
 * recorded before it ran over ACP.
 */
const OWN = AGENT_OWN_COMMANDS.map((c) => `--allow-tool=shell(troupe ${c}:*)`);

const mode = (id: string) => `https://agentclientprotocol.com/protocol/session-modes#${id}`;

function permissionArgs(m: PermissionMode): string[] {
  switch (m) {
    case "skip":
      return ["--allow-all"];
    case "edits":
      return ["--allow-tool=write", ...OWN];
    case "plan":
      return OWN;
    case "ask":
      // every request reaches the runner, and the daemon applies the rules
      return [];
  }
}

const COPILOT_ACP: AcpTransport = {
  argv: (input) => [
    "copilot",
    "--acp",
    // the version troupe runs is the one installed, not one fetched mid-run; questions go through troupe
    "--no-auto-update",
    "--no-ask-user",
    ...permissionArgs(input.permissions),
    ...(input.model ? [`--model=${input.model}`] : []),
  ],
  // autopilot would prompt itself again (its "continuation messages"): troupe's turns are the person's
  modes: { skip: mode("agent"), edits: mode("agent"), plan: mode("plan"), ask: mode("agent") },
};

/**
 * troupe's MCP server in a config file of its own (`--additional-mcp-config`, added to the person's
 * ~/.copilot/mcp-config.json for this session). Over ACP it takes only HTTP servers from the client
 * ("Rejecting non-http/sse MCP server"), so not the runner's `session/new`. It hands a local server
 * its whole environment and connects it before the first prompt; `timeout` is the tool call's limit
 * in ms (180 s unset); `--allow-tool=troupe` runs the server's tools unasked (checked with 1.0.102).
 */
function copilotMcp(server: McpServerSpec): McpInjection {
  const file = join(server.inputDir, "copilot-mcp.json");
  const config = { mcpServers: { troupe: { type: "local", command: server.command, args: server.args, tools: ["*"], timeout: server.toolTimeoutMs } } };
  return { args: [`--additional-mcp-config=@${file}`, "--allow-tool=troupe"], files: { [file]: `${JSON.stringify(config, null, 2)}\n` } };
}

/** Copilot's error types, as classes (its HTTP status, where it gives one, decides first). */
const ERROR_TYPES: Record<string, FailureClass> = { authentication: "auth", rate_limit: "rate_limit", quota: "usage_limit" };

function errorEvent(message: string, status: number | undefined, type: string | undefined): OutputEvent {
  const failure = httpFailure(status, message) ?? (type ? ERROR_TYPES[type] : undefined);
  return failure ? { kind: "error", message, failure } : { kind: "error", message };
}

function callFailure(data: JsonObject): OutputEvent[] {
  const status = num(data.statusCode);
  const detail = str(data.errorMessage) ?? "";
  const message = `model call failed${status ? ` (HTTP ${status})` : ""}: ${detail}`.trim();
  if (status !== undefined) return [errorEvent(message, status, str(data.errorType))];
  // no status: the request never got an answer
  return [str(data.failureKind) === "transport" ? { kind: "error", message, failure: "network" } : { kind: "error", message }];
}

/** Bookkeeping events a person has no use for (most are marked `ephemeral` too). */
const QUIET = new Set(["user.message", "assistant.turn_start", "assistant.turn_end", "assistant.message_start", "assistant.message_delta", "assistant.tool_call_delta", "assistant.idle", "assistant.turn_retry", "tool.shell_output", "tool.execution_partial_result", "abort"]);

function parseEvent(event: JsonObject): OutputEvent[] | null {
  const type = str(event.type);
  const data = obj(event.data) ?? {};
  switch (type) {
    case "assistant.message": {
      const text = str(data.content);
      return text ? [{ kind: "text", text }] : [];
    }
    case "tool.execution_start": {
      const name = str(data.toolName);
      return name ? [{ kind: "tool_use", id: str(data.toolCallId), name, input: stringify(data.arguments) }] : null;
    }
    case "tool.execution_complete": {
      const ok = data.success === true;
      const output = ok ? stringify(obj(data.result)?.content) : (str(obj(data.error)?.message) ?? stringify(data.error));
      return [{ kind: "tool_result", id: str(data.toolCallId), output, isError: !ok }];
    }
    case "model.call_failure":
      return callFailure(data);
    case "session.error":
      return [errorEvent(str(data.message) ?? "session error", num(data.statusCode), str(data.errorType))];
    case "session.warning": {
      const message = str(data.message);
      return message ? [{ kind: "text", text: `warning: ${message}` }] : [];
    }
    case "result": {
      const sessionId = str(event.sessionId);
      const exit = num(event.exitCode);
      const result: OutputEvent = { kind: "result", isError: exit !== undefined && exit !== 0 };
      return sessionId ? [{ kind: "session", sessionId }, result] : [result];
    }
    default:
      if (type && (QUIET.has(type) || event.ephemeral === true || type.startsWith("session."))) return [];
      return null;
  }
}

/**
 * Over ACP a failed model call ends the turn as any other (`end_turn`, no usage), its reason one
 * agent message of its own, "Error: Authentication failed with provider ... (HTTP 401)", after its
 * "Info: ... Retrying..." ones: that message is the run's error, for its failure class.
 */
function acpError(events: OutputEvent[]): OutputEvent[] {
  return events.map((e) => (e.kind === "text" && e.delta && /^Error: \S/.test(e.text) ? { kind: "error", message: e.text.slice("Error: ".length) } : e));
}

const headless = jsonlStdout(parseEvent);
const runnerOrHeadless = withRunnerLines(headless);

function parseLine(line: string, stream: Stream): OutputEvent[] {
  const events = runnerOrHeadless(line, stream);
  return stream === "stdout" && line.startsWith('{"acp":"recv"') ? acpError(events) : events;
}

/** Matched against stderr, error events and result text (headless, or the runner's lines and Copilot's "Error:" message over ACP); the first match wins. */
const COPILOT_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /unexpected argument|invalid value .* for|No session found|Session not found|Resource not found: Session/i },
  { failure: "auth", pattern: /Authentication failed|not logged in|No authentication information|copilot login|HTTP 401|HTTP 403|Copilot (is not enabled|subscription)/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|premium requests? (limit|exhausted)|monthly limit/i },
  // over ACP, after its retries: "Last error: 429 ..."
  { failure: "rate_limit", pattern: /HTTP 429|Last error: 429\b|rate limit/i },
  { failure: "overloaded", pattern: /HTTP 5\d\d|Last error: 5\d\d\b|overloaded|Service Unavailable/i },
  { failure: "timeout", pattern: /timed out|ETIMEDOUT/i },
  { failure: "network", pattern: /Could not connect|Connection refused|ECONNREFUSED|error sending request|ENOTFOUND|dns error/i },
  { failure: "crash", pattern: /panicked at|Segmentation fault|FATAL ERROR/ },
];

export const copilot: Provider = {
  name: "copilot",
  displayName: "Copilot CLI",
  binary: "copilot",
  install: "npm install -g @github/copilot",
  npmPackage: "@github/copilot",
  provenWith: "1.0.102",
  versionArgs: ["--version"],
  permissionModes: acpModes(COPILOT_ACP),
  routesPermissions: true,
  transport: "acp",
  liveInput: acpLiveInput,
  // configuration, login and sessions
  accountEnv: "COPILOT_HOME",
  api: { hosts: ["api.githubcopilot.com:443", "api.github.com:443"], urlEnv: ["COPILOT_PROVIDER_BASE_URL"] },
  // a GitHub token wins over a stored login; a BYOK key makes it leave GitHub aside altogether
  tokenEnv: "COPILOT_GITHUB_TOKEN",
  home: [".copilot/"],
  credentialEnv: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BEARER_TOKEN"],
  buildSpawn: (input) => acpCommand(COPILOT_ACP, input),
  buildResume: (input) => acpCommand(COPILOT_ACP, input, { sessionId: input.sessionId }),
  mcp: copilotMcp,
  interactive: (input) => ({ argv: ["copilot", ...(input.model ? [`--model=${input.model}`] : []), `--resume=${input.sessionId}`] }),
  parseLine,
  errorPatterns: COPILOT_ERROR_PATTERNS,
};
