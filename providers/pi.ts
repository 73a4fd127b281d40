import type { OutputEvent } from "../src/protocol/output.ts";
import { httpFailure } from "./http-failure.ts";
import { isObject, jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * pi, `pi -p --mode json` (checked against 0.73.1): the session header, then its agent events
 * as JSON lines. The prompt goes on stdin (pi takes no `--`: a prompt starting with "-" would be
 * an unknown option). pi asks before nothing: its tool list is the permission knob (no shell
 * under edits or plan, so no `troupe` command either). A failed model call ends its message
 * with `stopReason: "error"` and the run exits 0 all the same. It stays headless, not over ACP:
 * the adapter pi-acp 0.0.34 waits forever on 0.73.1 (it asks for `get_available_thinking_levels`,
 * whose "Unknown command" answer carries no id, and ends a turn on `agent_settled`, which 0.73.1
 * never sends), and 0.0.24, which runs it, starts pi with fixed arguments (no `--tools`, no
 * `--model`) and reports no tokens or cost (measured, docs/providers.md). It takes no message mid-run
 * here either: its own `--mode rpc` queues a `prompt` with `streamingBehavior: "steer"` while a model
 * call or tool runs and gives it to the model next, but one sent before its first model call is
 * answered `success: true` and never delivered, and it exits at once when its stdin closes, its
 * run cut (measured with 0.73.1): a message troupe writes could be lost, so pi has no live input.
 */
function toolArgs(mode: PermissionMode): string[] {
  switch (mode) {
    case "skip":
      return [];
    case "edits":
      return ["--tools", "read,edit,write,grep,find,ls"];
    case "plan":
      return ["--tools", "read,grep,find,ls"];
    case "ask":
      throw askRefused("pi (-p)");
  }
}

function command(input: CommandInput, resume: string[]): ProviderCommand {
  return { argv: ["pi", "-p", "--mode", "json", ...toolArgs(input.permissions), ...(input.model ? ["--model", input.model] : []), ...resume], stdin: input.prompt };
}

const messages = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** "401 Incorrect API key provided" → the error with the class its status says. */
function errorEvent(message: string): OutputEvent {
  const failure = httpFailure(Number(/^(\d{3})\b/.exec(message)?.[1]) || undefined, message);
  return failure ? { kind: "error", message, failure } : { kind: "error", message };
}

function assistantEnd(message: JsonObject): OutputEvent[] {
  if (str(message.stopReason) === "error") return [errorEvent(str(message.errorMessage) ?? "the model call failed")];
  // tool calls are shown as they run (tool_execution_start); thinking is not shown
  return messages(message.content)
    .filter((b) => b.type === "text" && str(b.text))
    .map((b) => ({ kind: "text", text: str(b.text)! }));
}

/** One run (or one retry of it) ends: what its model calls cost, and whether the last one failed. */
function agentEnd(event: JsonObject): OutputEvent[] {
  const assistant = messages(event.messages).filter((m) => m.role === "assistant");
  const sum = (pick: (u: JsonObject) => number | undefined) => assistant.reduce((n, m) => n + (pick(obj(m.usage) ?? {}) ?? 0), 0);
  const last = assistant.at(-1);
  const isError = str(last?.stopReason) === "error";
  return [
    {
      kind: "result",
      isError,
      ...(isError && str(last?.errorMessage) ? { text: str(last?.errorMessage) } : {}),
      costUsd: sum((u) => num(obj(u.cost)?.total)),
      inputTokens: sum((u) => num(u.input)),
      outputTokens: sum((u) => num(u.output)),
    },
  ];
}

function toolOutput(result: unknown): string {
  const content = messages(obj(result)?.content);
  return content.length ? content.map((c) => str(c.text) ?? `[${str(c.type) ?? "content"}]`).join("\n") : stringify(result);
}

const QUIET = new Set(["agent_start", "turn_start", "turn_end", "message_start", "message_update", "tool_execution_update", "queue_update", "compaction_start", "compaction_end", "auto_retry_start"]);

function parseEvent(event: JsonObject): OutputEvent[] | null {
  const type = str(event.type);
  switch (type) {
    case "session": {
      const sessionId = str(event.id);
      return sessionId ? [{ kind: "session", sessionId }] : null;
    }
    case "message_end": {
      const message = obj(event.message);
      return message?.role === "assistant" ? assistantEnd(message) : [];
    }
    case "tool_execution_start": {
      const name = str(event.toolName);
      return name ? [{ kind: "tool_use", id: str(event.toolCallId), name, input: stringify(event.args) }] : null;
    }
    case "tool_execution_end":
      return [{ kind: "tool_result", id: str(event.toolCallId), output: toolOutput(event.result), isError: event.isError === true }];
    case "agent_end":
      return agentEnd(event);
    case "auto_retry_end":
      return event.success === false ? [errorEvent(str(event.finalError) ?? "retries spent")] : [];
    default:
      return type && QUIET.has(type) ? [] : null;
  }
}

const PI_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /Unknown option|No models available|Model .* not found|Session .* not found|No API key found/i },
  { failure: "auth", pattern: /^40[13]\b|Incorrect API key|invalid api key|API key not valid|Unauthorized|authentication/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|credit balance/i },
  { failure: "rate_limit", pattern: /^429\b|rate limit/i },
  { failure: "overloaded", pattern: /^5\d\d\b|overloaded|Service Unavailable/i },
  { failure: "timeout", pattern: /timed out|ETIMEDOUT/i },
  { failure: "network", pattern: /Connection error|fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|socket hang up/i },
  { failure: "crash", pattern: /FATAL ERROR|JavaScript heap out of memory|Segmentation fault/i },
];

export const pi: Provider = {
  name: "pi",
  displayName: "pi",
  binary: "pi",
  install: "npm install -g @mariozechner/pi-coding-agent",
  npmPackage: "@mariozechner/pi-coding-agent",
  provenWith: "0.73.1",
  versionArgs: ["--version"],
  permissionModes: ["skip", "edits", "plan"],
  reportsCost: true,
  // settings, auth.json, models.json and sessions
  accountEnv: "PI_CODING_AGENT_DIR",
  tokenEnv: null,
  home: [".pi/"],
  credentialEnv: [],
  buildSpawn: (input) => command(input, []),
  buildResume: (input) => command(input, ["--session", input.sessionId]),
  interactive: (input) => ({ argv: ["pi", ...(input.model ? ["--model", input.model] : []), "--session", input.sessionId] }),
  parseLine: jsonlStdout(parseEvent),
  errorPatterns: PI_ERROR_PATTERNS,
};
