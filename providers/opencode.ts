import type { OutputEvent } from "../src/protocol/output.ts";
import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { httpFailure } from "./http-failure.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * opencode, `opencode run --format json` (checked against 1.18.33), and the CLIs forked from it
 * that keep its `run` (Kilo: providers/kilo.ts). The prompt goes on stdin: `run` re-quotes every
 * argument that holds a space, and takes no `--`. `run` rejects any permission that would ask,
 * so a mode is a config (`<PREFIX>_CONFIG_CONTENT`, merged over the person's own config) and,
 * for plan, the read-only plan agent. `--print-logs --log-level ERROR` puts on stderr what a
 * failing model call says: without it a run that retries a spent quota forever prints nothing.
 */
export interface OpenCodeFamily {
  name: string;
  displayName: string;
  binary: string;
  npmPackage: string;
  provenWith: string;
  /** `OPENCODE` or `KILO`: the prefix of its config variables. */
  envPrefix: string;
}

/** The agent's own troupe commands (by name: troupe is first on its PATH) are allowed in every mode. */
const OWN = Object.fromEntries(AGENT_OWN_COMMANDS.flatMap((c) => [[`troupe ${c}`, "allow"], [`troupe ${c} *`, "allow"]]));

/** `run` auto-rejects what would ask; plan denies outright what is not read-only. */
function permissionConfig(mode: PermissionMode, displayName: string): { args: string[]; permission: unknown } {
  switch (mode) {
    case "skip":
      return { args: [], permission: "allow" };
    case "edits":
      return { args: [], permission: { edit: "allow", bash: { "*": "ask", ...OWN }, webfetch: "ask" } };
    case "plan":
      return { args: ["--agent", "plan"], permission: { edit: "deny", bash: { "*": "deny", ...OWN }, webfetch: "ask" } };
    case "ask":
      throw askRefused(`${displayName} (run)`);
  }
}

function command(f: OpenCodeFamily, input: CommandInput, sessionArgs: string[]): ProviderCommand {
  const perm = permissionConfig(input.permissions, f.displayName);
  return {
    argv: [f.binary, "run", "--format", "json", "--print-logs", "--log-level", "ERROR", ...sessionArgs, ...perm.args, ...(input.model ? ["--model", input.model] : [])],
    env: { [`${f.envPrefix}_CONFIG_CONTENT`]: JSON.stringify({ permission: perm.permission }) },
    stdin: input.prompt,
  };
}

function toolEvents(part: JsonObject): OutputEvent[] | null {
  const name = str(part.tool);
  const state = obj(part.state);
  if (!name || !state) return null;
  const id = str(part.callID);
  const isError = str(state.status) === "error";
  const output = isError ? stringify(state.error) : stringify(state.output);
  // `run` prints a tool only once it has finished, so one line carries both halves.
  return [
    { kind: "tool_use", id, name, input: stringify(state.input) },
    { kind: "tool_result", id, output, isError },
  ];
}

function errorEvents(event: JsonObject): OutputEvent[] | null {
  const error = obj(event.error);
  const data = obj(error?.data);
  const message = str(data?.message) ?? str(error?.message) ?? str(error?.name);
  if (!message) return null;
  const failure = httpFailure(num(data?.statusCode), message);
  return [failure ? { kind: "error", message, failure } : { kind: "error", message }];
}

function parseEvent(event: JsonObject): OutputEvent[] | null {
  const part = obj(event.part);
  switch (str(event.type)) {
    case "step_start": {
      const sessionId = str(event.sessionID);
      return sessionId ? [{ kind: "session", sessionId }] : null;
    }
    case "text":
    case "reasoning": {
      const text = str(part?.text);
      return text !== undefined ? [{ kind: "text", text }] : null;
    }
    case "tool_use":
      return part ? toolEvents(part) : null;
    case "step_finish": {
      // Each step is one model call with its own tokens and cost: a step ending in tool calls is
      // followed by another, and troupe adds up what every step spent.
      const tokens = obj(part?.tokens);
      return [{ kind: "result", isError: false, costUsd: num(part?.cost), inputTokens: num(tokens?.input), outputTokens: num(tokens?.output) }];
    }
    case "error":
      return errorEvents(event);
    default:
      return null;
  }
}

/** Matched against stderr (its ERROR log lines), error events and results; the first match wins. */
const OPENCODE_ERROR_PATTERNS: ErrorPattern[] = [
  { failure: "setup", pattern: /is not valid JSON|Unknown argument|Session not found/i },
  { failure: "auth", pattern: /ProviderAuthError|AuthenticationError|invalid x-api-key|Incorrect API key|API key not valid|invalid api key|401 Unauthorized/i },
  { failure: "usage_limit", pattern: /insufficient_quota|exceeded your current quota|quota exceeded|usage limit|credit balance is too low/i },
  { failure: "rate_limit", pattern: /rate limit|\b429\b/i },
  { failure: "overloaded", pattern: /overloaded|\b529\b|\b503\b/i },
  { failure: "timeout", pattern: /TimeoutError|timed out/i },
  // every offline start logs that models.dev is out of reach: that alone is no reason a run failed
  { failure: "network", pattern: /^(?!.*models\.dev).*(Cannot connect to API|ECONNREFUSED|ENOTFOUND|ConnectionRefused|Unable to connect|fetch failed|socket hang up)/i },
  { failure: "crash", pattern: /panic:|Segmentation fault|FATAL ERROR/ },
];

export function openCodeFamily(f: OpenCodeFamily): Provider {
  return {
    name: f.name,
    displayName: f.displayName,
    binary: f.binary,
    install: `npm install -g ${f.npmPackage}`,
    npmPackage: f.npmPackage,
    provenWith: f.provenWith,
    versionArgs: ["--version"],
    permissionModes: ["skip", "edits", "plan"],
    reportsCost: true,
    // Credentials (auth.json) and sessions live in $XDG_DATA_HOME/<name>.
    accountEnv: "XDG_DATA_HOME",
    tokenEnv: null,
    credentialEnv: [],
    buildSpawn: (input) => command(f, input, []),
    buildResume: (input) => command(f, input, ["--session", input.sessionId]),
    // its TUI resumes a session with the same flag
    interactive: (input) => ({ argv: [f.binary, ...(input.model ? ["--model", input.model] : []), "--session", input.sessionId] }),
    parseLine: jsonlStdout(parseEvent),
    errorPatterns: OPENCODE_ERROR_PATTERNS,
  };
}

export const opencode = openCodeFamily({ name: "opencode", displayName: "opencode", binary: "opencode", npmPackage: "opencode-ai", provenWith: "1.18.33", envPrefix: "OPENCODE" });
