import type { OutputEvent } from "../src/protocol/output.ts";
import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { httpFailure } from "./http-failure.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, FailureClass, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * GitHub Copilot CLI, `copilot --output-format json` (checked against 1.0.102): the prompt on
 * stdin (a headless run reads it there when no -p is given), JSONL events on stdout. It runs on
 * a GitHub login (COPILOT_HOME) or token, or on a model endpoint of one's own (BYOK:
 * COPILOT_PROVIDER_BASE_URL, with COPILOT_OFFLINE=true nothing else is reached). The session id
 * comes only in the final `result`. A headless run denies what would ask, so `--allow-tool`
 * rules are the permission knob; plan mode blocks any shell command that would change files.
 */
const OWN = AGENT_OWN_COMMANDS.map((c) => `--allow-tool=shell(troupe ${c}:*)`);

function permissionArgs(mode: PermissionMode): string[] {
  switch (mode) {
    case "skip":
      return ["--allow-all"];
    case "edits":
      return ["--allow-tool=write", ...OWN];
    case "plan":
      return ["--plan", ...OWN];
    case "ask":
      throw askRefused("Copilot CLI (-p)");
  }
}

function command(input: CommandInput, resume: string[]): ProviderCommand {
  return {
    argv: [
      "copilot",
      "--output-format",
      "json",
      // the version troupe runs is the one installed, not one fetched mid-run; questions go through troupe
      "--no-auto-update",
      "--no-ask-user",
      ...permissionArgs(input.permissions),
      ...(input.model ? [`--model=${input.model}`] : []),
      ...resume,
    ],
    stdin: input.prompt,
  };
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

const COPILOT_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /unexpected argument|invalid value .* for|No session found|Session not found/i },
  { failure: "auth", pattern: /Authentication failed|not logged in|No authentication information|copilot login|HTTP 401|HTTP 403|Copilot (is not enabled|subscription)/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|premium requests? (limit|exhausted)|monthly limit/i },
  { failure: "rate_limit", pattern: /HTTP 429|rate limit/i },
  { failure: "overloaded", pattern: /HTTP 5\d\d|overloaded|Service Unavailable/i },
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
  permissionModes: ["skip", "edits", "plan"],
  // configuration, login and sessions
  accountEnv: "COPILOT_HOME",
  // a GitHub token wins over a stored login; a BYOK key makes it leave GitHub aside altogether
  tokenEnv: "COPILOT_GITHUB_TOKEN",
  credentialEnv: ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY", "COPILOT_PROVIDER_BEARER_TOKEN"],
  buildSpawn: (input) => command(input, []),
  buildResume: (input) => command(input, [`--resume=${input.sessionId}`]),
  interactive: (input) => ({ argv: ["copilot", ...(input.model ? [`--model=${input.model}`] : []), `--resume=${input.sessionId}`] }),
  parseLine: jsonlStdout(parseEvent),
  errorPatterns: COPILOT_ERROR_PATTERNS,
};
