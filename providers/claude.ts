import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { join } from "node:path";
import type { CommandInput, ErrorPattern, FailureClass, InteractiveInput, McpInjection, McpServerSpec, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * Claude Code, `claude -p --output-format stream-json --verbose` (checked against 2.1.197).
 * Every line of stdout is one JSON object: `system` (init, api_retry), `assistant` and `user`
 * messages (one content block per line), `rate_limit_event` and a `result` per turn. API failures
 * do not go to stderr: they arrive as a synthetic assistant message with an `error` field and a
 * `result` with `is_error: true` (exit code 1). stderr only carries start-up refusals.
 *
 * Its stdin is a stream of user messages (`--input-format stream-json`, one JSON line each, the
 * prompt first; a prompt argument is ignored then). Checked with 2.1.197: a line written while a
 * tool runs is folded into the conversation after that tool's result ("The user sent a new
 * message while you were working"); one written after a `result` starts a new turn; the run ends
 * once stdin is closed and the turn under way is over. `--replay-user-messages` echoes each line
 * as it is taken in (a `user` line with `isReplay` and the `uuid` the line carried). A line that
 * is not valid JSON ends the run with an error, so lines are written whole (src/live/).
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

const SUMMARY_MAX = 200;
const OUTPUT_MAX = 2000;

function oneLine(s: string, max = SUMMARY_MAX): string {
  const flat = s.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function compactJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? "";
  } catch {
    return String(v);
  }
}

/** The one thing a person wants to see of a tool call: the command, the file, the pattern. */
export function summarizeToolInput(name: string, input: unknown): string {
  if (!isObject(input)) return oneLine(typeof input === "string" ? input : compactJson(input));
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
  return oneLine(summary ?? compactJson(input));
}

/** Tool output as display text: text parts joined, images named, long output cut. */
export function summarizeToolOutput(content: unknown): string {
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
  } else text = content === undefined ? "" : compactJson(content);
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
  // the echo of a line of stdin, as the CLI takes it in
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
  const text = str(event.result) ?? (errors.length ? errors.join("\n") : undefined);
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
  if (info.status !== "rejected") return [];
  // epoch seconds: the exact time, where the text ("resets 12:18am") rounds to the minute
  const resets = num(info.resetsAt);
  const resetsAt = resets !== undefined ? Math.round(resets * 1000) : undefined;
  const when = resetsAt !== undefined ? `, resets ${new Date(resetsAt).toISOString()}` : "";
  const message = `usage limit reached (${str(info.rateLimitType) ?? "unknown"})${when}`;
  return [{ kind: "error", message, failure: "usage_limit", ...(resetsAt !== undefined && { resetsAt }) }];
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

export function parseClaudeLine(line: string, stream: Stream): OutputEvent[] {
  if (stream === "stderr") {
    const text = line.trim();
    return text && claudeErrorPatterns.some((p) => p.pattern.test(text)) ? [{ kind: "error", message: text }] : [{ kind: "raw", line }];
  }
  try {
    const value: unknown = JSON.parse(line);
    const events = isObject(value) ? stdoutEvents(value) : null;
    return events ?? [{ kind: "raw", line }];
  } catch {
    return [{ kind: "raw", line }];
  }
}

/** The MCP tool `ask` points Claude Code at: troupe's server is injected as `troupe` (src/agents/mcp-config.ts). */
export const CLAUDE_PERMISSION_TOOL = "mcp__troupe__permission";

function permissionArgs(mode: PermissionMode): string[] {
  switch (mode) {
    case "skip":
      return ["--dangerously-skip-permissions"];
    case "edits":
      return ["--permission-mode", "acceptEdits"];
    case "plan":
      return ["--permission-mode", "plan"];
    case "ask":
      // every call the CLI may not make alone goes to troupe's tool, which files it for the person
      return ["--permission-prompt-tool", CLAUDE_PERMISSION_TOOL];
  }
}

/** Under `ask` the daemon applies the rules (and logs what they decide); otherwise the CLI does. */
function ruleArgs(input: CommandInput): string[] {
  if (input.permissions === "ask") {
    // troupe's own tools are allowed to the CLI outright (claudeMcp), so they never reach the
    // permission tool: a deny rule naming one must be the CLI's too, or it would not win
    const own = (input.deniedTools ?? []).filter((r) => r === "mcp__troupe" || r.startsWith("mcp__troupe__"));
    return own.length ? ["--disallowedTools", ...own] : [];
  }
  return [
    // each flag takes many values; the `--` before the prompt ends them
    ...(input.allowedTools?.length ? ["--allowedTools", ...input.allowedTools] : []),
    ...(input.deniedTools?.length ? ["--disallowedTools", ...input.deniedTools] : []),
  ];
}

/**
 * Claude Code refuses --dangerously-skip-permissions as root unless told it is in a sandbox,
 * and an agent in its own worktree is the sandbox troupe means.
 */
export function claudeExtraEnv(mode: PermissionMode, uid: number | undefined, env: Readonly<Record<string, string>>): Record<string, string> | undefined {
  return mode === "skip" && uid === 0 && env.IS_SANDBOX === undefined ? { IS_SANDBOX: "1" } : undefined;
}

/** One user message as a line of stream-json input; `uuid` comes back in the echo (`--replay-user-messages`). */
export function claudeInputLine(text: string, id?: string): string {
  return JSON.stringify({ type: "user", message: { role: "user", content: text }, ...(id !== undefined && { uuid: id }) });
}

function command(input: CommandInput, resume: string[]): ProviderCommand {
  const argv = [
    "claude",
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    // stdin is the session's stream of user messages, the prompt first (see above)
    "--input-format",
    "stream-json",
    "--replay-user-messages",
    ...(input.model ? ["--model", input.model] : []),
    ...(input.budgetUsd !== undefined ? ["--max-budget-usd", input.budgetUsd.toFixed(2)] : []),
    ...permissionArgs(input.permissions),
    // `=`: a value starting with "-" stays a value
    ...(input.instructions ? [`--append-system-prompt=${input.instructions}`] : []),
    ...(input.mcpServers ? [`--mcp-config=${JSON.stringify({ mcpServers: input.mcpServers })}`] : []),
    // --allowedTools takes many values: --resume (an option) ends them
    ...ruleArgs(input),
    ...resume,
  ];
  const env = claudeExtraEnv(input.permissions, process.getuid?.(), input.env);
  return { argv, ...(env && { env }), stdin: `${claudeInputLine(input.prompt)}\n`, stdinStream: true };
}

/**
 * `--mcp-config <file>` (a JSON file of `mcpServers`; added to the person's own servers, not
 * replacing them). `timeout` is the per-server tool-call limit in ms (checked in 2.1.197: it wins
 * over MCP_TOOL_TIMEOUT). Claude Code hands its whole environment to stdio servers.
 */
export function claudeMcp(server: McpServerSpec): McpInjection {
  const file = join(server.inputDir, "mcp.json");
  // alwaysLoad: troupe's tools are never deferred behind tool search (an agent must see handoff and signal at once)
  const config = { mcpServers: { troupe: { type: "stdio", command: server.command, args: server.args, timeout: server.toolTimeoutMs, alwaysLoad: true } } };
  // In `edits` and `plan` modes Claude asks before any MCP tool or Bash command, which a headless
  // run cannot answer; troupe's own tools (`mcp__troupe` is all of that server's) and the agent's
  // own commands (`troupe signal`, `ask`, ...; by name and by the absolute path its prompt gives)
  // are its way to talk to troupe and to end its run, and none decides a permission or acts on
  // another agent, so they are allowed in every mode (Claude matches a `:*` prefix per command of
  // a chain). Under `ask` the commands reach the daemon's rules instead (built in, logged, a deny
  // of the person's still winning). Several --allowedTools add up; `=` keeps each a single value.
  const commands = server.permissions === "edits" || server.permissions === "plan" ? AGENT_OWN_COMMANDS : [];
  const own = ["mcp__troupe", ...commands.flatMap((c) => [`Bash(troupe ${c}:*)`, `Bash(${server.command} ${c}:*)`])];
  return { args: ["--mcp-config", file, ...own.map((rule) => `--allowedTools=${rule}`)], files: { [file]: `${JSON.stringify(config, null, 2)}\n` } };
}

/**
 * Claude Code appends every turn of a session to `<config>/projects/<cwd, non-alphanumerics as
 * dashes>/<session id>.jsonl` (checked with 2.1.197), in the stream-json shapes of `-p` (`user`,
 * `assistant` messages) with bookkeeping lines of its own beside them.
 */
function claudeTranscript(input: InteractiveInput): string | null {
  const dir = input.env.CLAUDE_CONFIG_DIR || (input.env.HOME ? join(input.env.HOME, ".claude") : null);
  if (!dir || !input.sessionId) return null;
  return join(dir, "projects", input.cwd.replace(/[^A-Za-z0-9]/g, "-"), `${input.sessionId}.jsonl`);
}

export const claude: Provider = {
  name: "claude",
  displayName: "Claude Code",
  binary: "claude",
  install: "npm install -g @anthropic-ai/claude-code",
  routesPermissions: true,
  versionArgs: ["--version"],
  accountEnv: "CLAUDE_CONFIG_DIR",
  takesSystemPrompt: true,
  // a long-lived OAuth token (`claude setup-token`); API keys of the spawning env would win over it
  tokenEnv: "CLAUDE_CODE_OAUTH_TOKEN",
  credentialEnv: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"],
  liveInput: { line: claudeInputLine },
  buildSpawn: (input) => command(input, []),
  buildResume: (input) => command(input, ["--resume", input.sessionId]),
  // the person answers its permission prompts: no permission flag, no system prompt (the session holds it)
  interactive: (input) => ({ argv: ["claude", ...(input.model ? ["--model", input.model] : []), "--resume", input.sessionId] }),
  transcript: claudeTranscript,
  mcp: claudeMcp,
  parseLine: parseClaudeLine,
  errorPatterns: claudeErrorPatterns,
};
