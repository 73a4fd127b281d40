import type { OutputEvent, Stream, UsageWindow } from "../../src/protocol/output.ts";
import { isObject, num, obj, parseJsonLine, str, stringify, type JsonObject } from "../json-line.ts";
import type { ErrorPattern, FailureClass } from "../types.ts";

/**
 * Claude Code's `-p --output-format stream-json --verbose` output, pure: one line to events.
 * Every line of stdout is one JSON object: `system` (init, api_retry), `assistant` and `user`
 * messages (one content block per line), `rate_limit_event` and a `result` per turn. API failures
 * do not go to stderr: they arrive as a synthetic assistant message with an `error` field and a
 * `result` with `is_error: true` (exit code 1). stderr only carries start-up refusals. Qwen Code
 * prints the same shapes (providers/qwen.ts).
 */

type Json = JsonObject;

const SUMMARY_MAX = 200;
const OUTPUT_MAX = 2000;

function oneLine(s: string, max = SUMMARY_MAX): string {
  const flat = s.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The one thing a person wants to see of a tool call: the command, the file, the pattern. */
export function summarizeToolInput(name: string, input: unknown): string {
  if (!isObject(input)) return oneLine(typeof input === "string" ? input : stringify(input));
  const pick = (...keys: string[]) => keys.map((k) => str(input[k])).find((v) => v !== undefined && v !== "");
  const withPath = (main: string | undefined) => {
    const path = pick("path");
    return main && path ? `${main} in ${path}` : main;
  };
  let summary: string | undefined;
  switch (name) {
    case "Bash":
      summary = pick("command");
      break;
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      summary = pick("file_path", "notebook_path");
      break;
    case "Glob":
    case "Grep":
      summary = withPath(pick("pattern"));
      break;
    case "WebFetch":
      summary = pick("url");
      break;
    case "WebSearch":
      summary = pick("query");
      break;
    case "Task":
    case "Agent":
      summary = pick("description", "prompt");
      break;
    case "TodoWrite":
      summary = Array.isArray(input.todos) ? `${input.todos.length} todos` : undefined;
      break;
  }
  summary ??= pick("command", "file_path", "path", "pattern", "url", "query", "description");
  return oneLine(summary ?? stringify(input));
}

/** Tool output as display text: text parts joined, images named, long output cut. */
function summarizeToolOutput(content: unknown): string {
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((part) => {
        if (!isObject(part)) return "";
        if (part.type === "text") return str(part.text) ?? "";
        return `[${str(part.type) ?? "content"}]`;
      })
      .join("\n");
  } else text = content === undefined ? "" : stringify(content);
  return text.length > OUTPUT_MAX ? `${text.slice(0, OUTPUT_MAX)}… (${text.length - OUTPUT_MAX} more chars)` : text;
}

function contentBlocks(message: unknown): Json[] {
  const content = isObject(message) ? message.content : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function systemEvents(event: Json): OutputEvent[] | null {
  if (event.subtype !== "init") return null;
  const sessionId = str(event.session_id);
  if (!sessionId) return null;
  const model = str(event.model);
  return [model ? { kind: "session", sessionId, model } : { kind: "session", sessionId }];
}

/**
 * The error kinds Claude Code puts on a synthetic assistant message, as classes. `rate_limit` is
 * the per-minute 429; a spent subscription quota also says `rate_limit` but comes with a rejected
 * `rate_limit_event`, which outranks it (see diagnose). `server_error` covers refused connections
 * and timeouts alike, so it says nothing on its own: the text decides.
 */
const ASSISTANT_ERRORS: Record<string, FailureClass> = {
  authentication_failed: "auth",
  billing_error: "usage_limit",
  rate_limit: "rate_limit",
  overloaded: "overloaded",
};

/** The HTTP status of a failed result, as a class (429 is the per-minute limit; a quota says so apart). */
function statusClass(status: number | undefined): FailureClass | undefined {
  if (status === undefined) return undefined;
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status === 529 || (status >= 500 && status < 600)) return "overloaded";
  return undefined;
}

function assistantEvents(event: Json): OutputEvent[] {
  const blocks = contentBlocks(event.message);
  // An API failure comes back as a synthetic assistant message whose text is the error.
  const error = str(event.error);
  if (error) {
    const message = blocks.map((b) => str(b.text) ?? "").join("\n").trim() || error;
    const failure = ASSISTANT_ERRORS[error];
    return [failure ? { kind: "error", message, failure } : { kind: "error", message }];
  }
  const out: OutputEvent[] = [];
  for (const block of blocks) {
    if (block.type === "text") {
      const text = str(block.text);
      if (text) out.push({ kind: "text", text });
    } else if (block.type === "tool_use") {
      const name = str(block.name) ?? "tool";
      out.push({ kind: "tool_use", id: str(block.id), name, input: summarizeToolInput(name, block.input) });
    }
    // thinking blocks are not shown
  }
  return out;
}

/** A message's text: a string, or its text blocks joined. */
function messageText(message: unknown): string {
  const content = isObject(message) ? message.content : undefined;
  if (typeof content === "string") return content;
  return contentBlocks(message)
    .map((b) => (b.type === "text" ? (str(b.text) ?? "") : ""))
    .join("\n");
}

function userEvents(event: Json): OutputEvent[] {
  // the echo of a line of stdin, as the CLI takes it in (`--replay-user-messages`)
  if (event.isReplay === true) {
    const id = str(event.uuid);
    return [{ kind: "input", text: messageText(event.message), ...(id && { id }) }];
  }
  return contentBlocks(event.message)
    .filter((b) => b.type === "tool_result")
    .map((b) => ({ kind: "tool_result", id: str(b.tool_use_id), output: summarizeToolOutput(b.content), isError: b.is_error === true }));
}

function resultEvents(event: Json): OutputEvent[] {
  const usage = isObject(event.usage) ? event.usage : {};
  const input = num(usage.input_tokens);
  // Anthropic counts cached prompt tokens apart from input_tokens; the total is what was read.
  const inputTokens = input === undefined ? undefined : input + (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
  const errors = Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === "string") : [];
  // Qwen Code says a failed run's reason in `error.message`
  const text = str(event.result) ?? (errors.length ? errors.join("\n") : undefined) ?? str(obj(event.error)?.message);
  const isError = event.is_error === true || (str(event.subtype)?.startsWith("error") ?? false);
  const failure = isError ? statusClass(num(event.api_error_status)) : undefined;
  // a run stopped at its --max-budget-usd ends with this subtype
  const budget = event.subtype === "error_max_budget_usd";
  const errorEvents: OutputEvent[] = errors.map((message) => ({ kind: "error", message }));
  if (budget) errorEvents.push({ kind: "error", message: text ?? "the budget (--max-budget-usd) is spent", failure: "budget" });
  else if (failure) errorEvents.push({ kind: "error", message: text ?? `API error ${num(event.api_error_status)}`, failure });
  const result: OutputEvent = {
    kind: "result",
    isError,
    ...(text !== undefined && { text }),
    ...(num(event.total_cost_usd) !== undefined && { costUsd: num(event.total_cost_usd) }),
    ...(inputTokens !== undefined && { inputTokens }),
    ...(num(usage.output_tokens) !== undefined && { outputTokens: num(usage.output_tokens) }),
  };
  return [...errorEvents, result];
}

function rateLimitEvents(event: Json): OutputEvent[] {
  const info = isObject(event.rate_limit_info) ? event.rate_limit_info : {};
  const usage = usageWindows(info);
  const events: OutputEvent[] = usage.length ? [{ kind: "usage", windows: usage }] : [];
  if (info.status !== "rejected") return events;
  // epoch seconds: the exact time, where the text ("resets 12:18am") rounds to the minute
  const resets = num(info.resetsAt);
  const resetsAt = resets !== undefined ? Math.round(resets * 1000) : undefined;
  const when = resetsAt !== undefined ? `, resets ${new Date(resetsAt).toISOString()}` : "";
  const message = `usage limit reached (${str(info.rateLimitType) ?? "unknown"})${when}`;
  return [...events, { kind: "error", message, failure: "usage_limit", ...(resetsAt !== undefined && { resetsAt }) }];
}

/**
 * The account's windows in a rate-limit event: `unifiedWindows` (each with its utilization and
 * reset, recorded in tests/fixtures/claude/usage-window.stdout.jsonl), else the one the event is
 * about when it gives a utilization. Windows without both are left out.
 */
function usageWindows(info: Json): UsageWindow[] {
  const all = isObject(info.unifiedWindows) ? Object.entries(info.unifiedWindows) : [[str(info.rateLimitType) ?? "", info] as const];
  const out: UsageWindow[] = [];
  for (const [window, w] of all) {
    if (!window || !isObject(w)) continue;
    const utilization = num(w.utilization);
    const resets = num(w.resetsAt);
    if (utilization === undefined || utilization < 0 || resets === undefined) continue;
    out.push({ window, utilization, resetsAt: Math.round(resets * 1000) });
  }
  return out;
}

function stdoutEvents(event: Json): OutputEvent[] | null {
  switch (event.type) {
    case "system":
      return systemEvents(event);
    case "assistant":
      return assistantEvents(event);
    case "user":
      return userEvents(event);
    case "result":
      return resultEvents(event);
    case "rate_limit_event":
      return rateLimitEvents(event);
    default:
      return null;
  }
}

/** Matched against stderr, error events and result text; the first match wins, so order matters. */
export const claudeErrorPatterns: ErrorPattern[] = [
  // fixed refusals first: running again cannot help
  { failure: "setup", pattern: /cannot be used with root\/sudo privileges|No conversation found with session ID|requires --verbose|Input must be provided|error: unknown option/i },
  // "Server is temporarily limiting requests (not your usage limit)" is a transient 429.
  { failure: "rate_limit", pattern: /not your usage limit|per-minute rate limit|Request rejected \(429\)|rate_limit_error/i },
  { failure: "overloaded", pattern: /\boverloaded(_error)?\b|API Error: 5\d\d/i },
  { failure: "network", pattern: /Unable to connect to API|ConnectionRefused|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket connection was closed|fetch failed/i },
  { failure: "usage_limit", pattern: /You've hit your [\w -]*limit|usage limit|out of (extra )?usage|Credit balance is too low/i },
  { failure: "auth", pattern: /Invalid API key|Not logged in|Please run \/login|OAuth token (has )?(expired|revoked)|authentication_(failed|error)|invalid x-api-key|API Error: 40[13]\b/i },
  { failure: "timeout", pattern: /Request timed out|ETIMEDOUT|\btimed out\b/i },
];

/**
 * A parseLine for Claude Code's stream-json and for CLIs printing the same shapes: stdout lines
 * through the events above (then `more`, for a CLI's own extra types), stderr lines matching
 * one of `patterns` as errors, anything else kept raw.
 */
export function streamJsonParser(patterns: readonly ErrorPattern[], more: (event: JsonObject) => OutputEvent[] | null = () => null): (line: string, stream: Stream) => OutputEvent[] {
  return (line, stream) => {
    if (stream === "stderr") {
      const text = line.trim();
      return text && patterns.some((p) => p.pattern.test(text)) ? [{ kind: "error", message: text }] : [{ kind: "raw", line }];
    }
    return parseJsonLine(line, (event) => stdoutEvents(event) ?? more(event));
  };
}

export const parseClaudeLine = streamJsonParser(claudeErrorPatterns);
