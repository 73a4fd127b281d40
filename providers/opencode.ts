import type { OutputEvent } from "../src/protocol/output.ts";
import { AGENT_OWN_COMMANDS } from "../src/protocol/own-commands.ts";
import { httpFailure } from "./http-failure.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { acpCommand, acpLiveInput, acpModes, withRunnerLines, type AcpTransport } from "./acp/transport.ts";
import type { ErrorPattern, PermissionMode, Provider } from "./types.ts";

/**
 * opencode (checked against 1.18.33), and the CLIs forked from it (Kilo: providers/kilo.ts), driven
 * over the Agent Client Protocol (`opencode acp` under troupe's runner). Its session modes are its
 * agents, offered as a config option of category `mode` (`build`, `plan`; Kilo's `code`, `plan`, ...); what each tool may do
 * without asking is its config (`<PREFIX>_CONFIG_CONTENT`, merged over the person's own), so a
 * permission mode is both: under ask every edit, shell command and fetch asks (the runner asks
 * troupe's rules, then the person); under edits and plan what would ask is decided by the runner's
 * rules (the agent's own troupe commands allowed). It loads the sessions it recorded (`session/load`,
 * their history replayed). `--print-logs --log-level ERROR` puts on stderr what a failing model call
 * says: without it a run that retries a spent quota forever prints nothing. Its headless
 * `run --format json` lines are still read: sessions recorded before it ran over ACP.
 */
export interface OpenCodeFamily {
  name: string;
  displayName: string;
  binary: string;
  npmPackage: string;
  provenWith: string;
  /** `OPENCODE` or `KILO`: the prefix of its config variables. */
  envPrefix: string;
  /** Its agent that edits and runs commands, as its mode option names it (opencode's `build`, Kilo's `code`). */
  workMode: string;
}

/** The agent's own troupe commands (by name: troupe is first on its PATH) are allowed in every mode. */
const OWN = Object.fromEntries(AGENT_OWN_COMMANDS.flatMap((c) => [[`troupe ${c}`, "allow"], [`troupe ${c} *`, "allow"]]));

/** What each tool may do without asking, per permission mode; plan denies outright what is not read-only. */
const PERMISSION: Record<PermissionMode, unknown> = {
  skip: "allow",
  edits: { edit: "allow", bash: { "*": "ask", ...OWN }, webfetch: "ask" },
  plan: { edit: "deny", bash: { "*": "deny", ...OWN }, webfetch: "ask" },
  ask: { edit: "ask", bash: "ask", webfetch: "ask" },
};

function transport(f: OpenCodeFamily): AcpTransport {
  return {
    argv: () => [f.binary, "acp", "--print-logs", "--log-level", "ERROR"],
    env: (input) => ({ [`${f.envPrefix}_CONFIG_CONTENT`]: JSON.stringify({ permission: PERMISSION[input.permissions], ...(input.model && { model: input.model }) }) }),
    modes: { skip: f.workMode, edits: f.workMode, plan: "plan", ask: f.workMode },
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
  const acp = transport(f);
  return {
    name: f.name,
    displayName: f.displayName,
    binary: f.binary,
    install: `npm install -g ${f.npmPackage}`,
    npmPackage: f.npmPackage,
    provenWith: f.provenWith,
    versionArgs: ["--version"],
    permissionModes: acpModes(acp),
    routesPermissions: true,
    transport: "acp",
    liveInput: acpLiveInput,
    reportsCost: true,
    reportsPlan: true,
    // Credentials (auth.json) and sessions live in $XDG_DATA_HOME/<name>.
    accountEnv: "XDG_DATA_HOME",
    tokenEnv: null,
    home: [`.local/share/${f.binary}/`, `.config/${f.binary}/`, `.cache/${f.binary}/`, `.local/state/${f.binary}/`],
    credentialEnv: [],
    buildSpawn: (input) => acpCommand(acp, input),
    buildResume: (input) => acpCommand(acp, input, { sessionId: input.sessionId }),
    // its TUI resumes a session with the same flag
    interactive: (input) => ({ argv: [f.binary, ...(input.model ? ["--model", input.model] : []), "--session", input.sessionId] }),
    parseLine: withRunnerLines(jsonlStdout(parseEvent)),
    errorPatterns: OPENCODE_ERROR_PATTERNS,
  };
}

export const opencode = openCodeFamily({ name: "opencode", displayName: "opencode", binary: "opencode", npmPackage: "opencode-ai", provenWith: "1.18.33", envPrefix: "OPENCODE", workMode: "build" });
