import { join } from "node:path";
import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import { num, obj, parseJsonLine, str, stringify, type JsonObject } from "./json-line.ts";
import { modeRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, FailureClass, McpInjection, McpServerSpec, Provider, ProviderCommand } from "./types.ts";

/**
 * Cline's CLI, driven over the Agent Client Protocol (`cline --acp`, checked against 3.0.65).
 * Its session modes are `act` and `plan` (plan blocks edits and any command it judges to change a
 * file); with `--auto-approve true` it runs every tool call without asking, else it asks about
 * each one, reads too (`session/request_permission`): skip is act approving all, plan its plan
 * mode approving all (as its headless `--plan` runs), ask act asking. Tools are approved all or
 * none, so `edits` is refused. It loads the sessions it recorded (`session/load`, its history
 * replayed), so a finished session resumes, which its headless mode cannot (`--id` opens its
 * interactive UI). It reports no usage over ACP (its `usage` events are dropped), so a run has no
 * tokens or cost. It starts a session only signed in to its own account (`cline auth`) or given
 * CLINE_API_KEY, with CLINE_PROVIDER naming another provider (its base URL then read from its
 * settings) and CLINE_MODEL a model of that provider's catalog (else the provider's default: the
 * model `cline auth -m` stored is not read over ACP). Its headless JSON lines are still read:
 * sessions recorded before it ran over ACP.
 *
 * By default it runs a session in a hub daemon it starts apart (`cline --cline-hub-daemon`, its own
 * process group, one per data folder), which keeps the environment of the session that started
 * it: a resumed session's commands ran with the first session's troupe token ("unknown agent
 * token"), in that daemon rather than in the agent's process group. CLINE_SESSION_BACKEND_MODE=local runs the session in
 * the CLI's own process, which loads the recorded sessions all the same (checked with 3.0.65).
 */
const CLINE_ACP: AcpTransport = {
  argv: (input) => ["cline", "--acp", ...(input.permissions === "ask" ? [] : ["--auto-approve", "true"])],
  env: (input) => ({ CLINE_SESSION_BACKEND_MODE: "local", ...(input.model && { CLINE_MODEL: input.model }) }),
  modes: { skip: "act", plan: "plan", ask: "act" },
};

/** The session's command; `edits` refused with Cline's reason (its map has no mode for it). */
function command(input: CommandInput, sessionId?: string): ProviderCommand {
  if (input.permissions === "edits") throw modeRefused("Cline", "edits", "it approves tools all or none, so edits cannot be allowed apart from commands", acpModes(CLINE_ACP));
  return acpCommand(CLINE_ACP, input, sessionId === undefined ? undefined : { sessionId });
}

/** The longest MCP call Cline holds, in seconds: it clamps a server's `timeout` to it (checked with 3.0.65). */
const CLINE_MCP_TIMEOUT_MAX_S = 3600;

/**
 * Cline ignores the MCP servers of `session/new`: it reads its own settings file, which
 * CLINE_MCP_SETTINGS_PATH names (checked with 3.0.65), so troupe's server is in a file of the
 * session's and the person's `cline_mcp_settings.json` is not read for it. The server inherits the
 * agent's environment (the file names no variable, so no secret is written). Its `timeout` is in
 * seconds, clamped to 3600: no troupe tool call lasts longer in Cline, so a wait of the full hour
 * (MCP_MAX_WAIT_SECONDS) ends at Cline's limit rather than troupe's.
 */
function clineMcp(server: McpServerSpec): McpInjection {
  const file = join(server.inputDir, "cline-mcp-settings.json");
  const settings = { mcpServers: { troupe: { command: server.command, args: server.args, timeout: Math.min(CLINE_MCP_TIMEOUT_MAX_S, Math.ceil(server.toolTimeoutMs / 1000)) } } };
  return { args: [], env: { CLINE_MCP_SETTINGS_PATH: file }, files: { [file]: `${JSON.stringify(settings, null, 2)}\n` } };
}

/** The class Cline gives an error (`errorClass`), as troupe's. */
const ERROR_CLASSES: Record<string, FailureClass> = { auth: "auth", rate_limit: "rate_limit", quota: "usage_limit", network: "network", timeout: "timeout" };

function toolResult(event: JsonObject): OutputEvent {
  const output = event.output;
  // run_commands: one entry per command; other tools: an object, or `{error}` when refused
  const list = Array.isArray(output) ? output.map(obj) : [];
  const error = str(obj(output)?.error);
  const failed = error !== undefined || list.some((o) => o?.success === false);
  const text = error ?? (list.length ? list.map((o) => str(o?.result) ?? str(o?.error) ?? "").join("\n") : stringify(output));
  return { kind: "tool_result", id: str(event.toolCallId), output: text, isError: failed };
}

function agentEvent(event: JsonObject): OutputEvent[] | null {
  switch (str(event.type)) {
    case "content_start":
      // text arrives a piece at a time and again whole at content_end
      if (str(event.contentType) !== "tool") return [];
      return [{ kind: "tool_use", id: str(event.toolCallId), name: str(event.toolName) ?? "tool", input: stringify(event.input) }];
    case "content_end":
      if (str(event.contentType) === "tool") return [toolResult(event)];
      return str(event.text) ? [{ kind: "text", text: str(event.text)! }] : [];
    case "error": {
      const message = str(obj(event.error)?.message) ?? str(event.message);
      if (!message) return null;
      const failure = ERROR_CLASSES[str(event.errorClass) ?? ""];
      return [failure ? { kind: "error", message, failure } : { kind: "error", message }];
    }
    case "content_update":
    case "iteration_start":
    case "iteration_end":
    case "usage":
    case "done":
      return [];
    default:
      return null;
  }
}

function parseEvent(event: JsonObject): OutputEvent[] | null {
  switch (str(event.type)) {
    case "agent_event": {
      const inner = obj(event.event);
      return inner ? agentEvent(inner) : null;
    }
    case "hook_event":
      return [];
    case "run_result": {
      const usage = obj(event.usage);
      const isError = str(event.finishReason) !== "completed";
      return [
        {
          kind: "result",
          isError,
          ...(str(event.text) !== undefined && { text: str(event.text) }),
          costUsd: num(usage?.totalCost),
          inputTokens: num(usage?.inputTokens),
          outputTokens: num(usage?.outputTokens),
        },
      ];
    }
    case "run_aborted":
    case "error": {
      const message = str(event.message);
      return message ? [{ kind: "error", message }] : null;
    }
    default:
      return null;
  }
}

/** Its headless JSON lines (`cline --json`), and over ACP its stderr. */
function parseLine(line: string, stream: Stream): OutputEvent[] {
  // stderr also carries the AI SDK's warnings and their stack lines: only JSON errors are events
  if (stream === "stderr") return line.trimStart().startsWith('{"') ? parseJsonLine(line, parseEvent) : [{ kind: "raw", line }];
  return parseJsonLine(line, parseEvent);
}

/** Matched against stderr, error events and the runner's line for a JSON-RPC error ("Authentication required" when it has no credentials). */
const CLINE_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /requires a prompt argument|prompt cannot be empty|unknown option|invalid (thinking level|auto-approve|timeout)|Resource not found/i },
  { failure: "auth", pattern: /Incorrect API key|invalid api key|API key not valid|Unauthorized|\b401\b|not authenticated|cline auth|Authentication required/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|insufficient credits|credit balance/i },
  { failure: "rate_limit", pattern: /rate limit|\b429\b/i },
  { failure: "overloaded", pattern: /overloaded|\b5\d\d\b.*(error|status)|Service Unavailable/i },
  { failure: "timeout", pattern: /timed out|ETIMEDOUT/i },
  { failure: "network", pattern: /Connection error|Cannot connect|ECONNREFUSED|ENOTFOUND|fetch failed|Unable to connect/i },
  { failure: "crash", pattern: /panic:|Segmentation fault|FATAL ERROR/ },
];

export const cline: Provider = {
  name: "cline",
  displayName: "Cline",
  binary: "cline",
  install: "npm install -g cline",
  npmPackage: "cline",
  provenWith: "3.0.65",
  versionArgs: ["--version"],
  permissionModes: acpModes(CLINE_ACP),
  routesPermissions: true,
  transport: "acp",
  liveInput: acpLiveInput,
  // settings (providers and keys, from `cline auth`) and sessions
  accountEnv: "CLINE_DATA_DIR",
  tokenEnv: null,
  home: [".cline/"],
  credentialEnv: ["CLINE_API_KEY"],
  buildSpawn: (input) => command(input),
  buildResume: (input) => command(input, input.sessionId),
  mcp: clineMcp,
  parseLine: withRunnerLines(parseLine),
  errorPatterns: CLINE_ERROR_PATTERNS,
};
