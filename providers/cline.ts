import { TroupeError } from "../src/errors.ts";
import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { num, obj, parseJsonLine, str, stringify, type JsonObject } from "./json-line.ts";
import { fitsInArgument, PROMPT_ARG_MAX_BYTES } from "./prompt-arg.ts";
import { askRefused, modeRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, FailureClass, Provider, ProviderCommand } from "./types.ts";

/**
 * Cline's CLI, `cline --json -- PROMPT` (checked against 3.0.65): JSONL events on stdout, a
 * refusal or an API error as one JSON line on stderr. It cannot resume headless: `--id` always
 * opens its interactive UI and drops the prompt (and JSON mode then refuses to start), and no
 * event names the session it saved, so an agent on Cline runs once. Its JSON mode takes the
 * prompt as an argument only (piped stdin is added to an argument, never instead of one), so a
 * prompt over the argument limit is refused. Tools are approved all or nothing: `edits` is
 * refused; `plan` is its plan mode, which blocks any change.
 */
function command(input: CommandInput): ProviderCommand {
  if (input.permissions === "ask") throw askRefused("Cline (--json)");
  if (input.permissions === "edits") throw modeRefused("Cline", "edits", "it approves tools all or none, so edits cannot be allowed apart from commands", ["skip", "plan"]);
  if (!fitsInArgument(input.prompt)) {
    throw new TroupeError("bad_request", `the prompt is too long for Cline: its headless mode takes it as one argument, at most ${PROMPT_ARG_MAX_BYTES / 1024} KiB and no NUL byte`);
  }
  return {
    argv: [
      "cline",
      "--json",
      ...(input.permissions === "plan" ? ["--plan"] : ["--auto-approve", "true"]),
      ...(input.model ? [`--model=${input.model}`] : []),
      "--",
      input.prompt,
    ],
  };
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

function parseLine(line: string, stream: Stream): OutputEvent[] {
  // stderr also carries the AI SDK's warnings and their stack lines: only JSON errors are events
  if (stream === "stderr") return line.trimStart().startsWith('{"') ? parseJsonLine(line, parseEvent) : [{ kind: "raw", line }];
  return parseJsonLine(line, parseEvent);
}

const CLINE_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /requires a prompt argument|prompt cannot be empty|unknown option|invalid (thinking level|auto-approve|timeout)/i },
  { failure: "auth", pattern: /Incorrect API key|invalid api key|API key not valid|Unauthorized|\b401\b|not authenticated|cline auth/i },
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
  permissionModes: ["skip", "plan"],
  reportsCost: true,
  // settings (providers and keys, from `cline auth`) and sessions
  accountEnv: "CLINE_DATA_DIR",
  tokenEnv: null,
  credentialEnv: ["CLINE_API_KEY"],
  buildSpawn: command,
  buildResume: null,
  parseLine,
  errorPatterns: CLINE_ERROR_PATTERNS,
};
