import type { OutputEvent } from "../src/protocol/output.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { askRefused } from "./ask-refused.ts";
import type { CommandInput, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * opencode, `opencode run --format json` (documented behaviour; not installed here).
 * The prompt goes on stdin: `run` re-quotes every argument that holds a space.
 * `run` auto-rejects any permission that would ask, so the permission mode is a config
 * (OPENCODE_CONFIG_CONTENT is merged over the user's config) or the read-only plan agent.
 */
function permissionSetup(mode: PermissionMode): { args: string[]; config?: unknown } {
  switch (mode) {
    case "skip":
      return { args: [], config: { permission: "allow" } };
    case "edits":
      return { args: [], config: { permission: { edit: "allow", bash: "ask", webfetch: "ask" } } };
    case "plan":
      return { args: ["--agent", "plan"] };
    case "ask":
      throw askRefused("opencode (run)");
  }
}

function build(input: CommandInput, sessionArgs: string[]): ProviderCommand {
  const perm = permissionSetup(input.permissions);
  return {
    argv: [
      "opencode",
      "run",
      "--format",
      "json",
      ...sessionArgs,
      ...perm.args,
      ...(input.model ? ["--model", input.model] : []),
    ],
    ...(perm.config ? { env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(perm.config) } } : {}),
    stdin: input.prompt,
  };
}

function buildSpawn(input: CommandInput): ProviderCommand {
  return build(input, []);
}

function buildResume(input: CommandInput & { sessionId: string }): ProviderCommand {
  return build(input, ["--session", input.sessionId]);
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
      // A step ending in tool calls is followed by another step; only the last one is the result.
      if (str(part?.reason) === "tool-calls") return [];
      const tokens = obj(part?.tokens);
      return [
        {
          kind: "result",
          isError: false,
          costUsd: num(part?.cost),
          inputTokens: num(tokens?.input),
          outputTokens: num(tokens?.output),
        },
      ];
    }
    case "error": {
      const error = obj(event.error);
      const message = str(obj(error?.data)?.message) ?? str(error?.message) ?? str(error?.name);
      return message ? [{ kind: "error", message }] : null;
    }
    default:
      return null;
  }
}

const parseLine = jsonlStdout(parseEvent);

export const opencode: Provider = {
  name: "opencode",
  displayName: "opencode",
  binary: "opencode",
  install: "npm install -g opencode-ai",
  versionArgs: ["--version"],
  // Credentials (auth.json) and sessions live in $XDG_DATA_HOME/opencode.
  accountEnv: "XDG_DATA_HOME",
  tokenEnv: null,
  credentialEnv: [],
  buildSpawn,
  buildResume,
  parseLine,
  errorPatterns: [
    {
      failure: "auth",
      pattern: /ProviderAuthError|AuthenticationError|invalid x-api-key|Incorrect API key|API key not valid|invalid api key|401 Unauthorized/i,
    },
    {
      failure: "usage_limit",
      pattern: /insufficient_quota|exceeded your current quota|quota exceeded|usage limit|credit balance is too low/i,
    },
    { failure: "rate_limit", pattern: /rate limit|\b429\b/i },
    { failure: "overloaded", pattern: /overloaded|\b529\b|\b503\b/i },
    { failure: "timeout", pattern: /TimeoutError|timed out/i },
    { failure: "network", pattern: /ECONNREFUSED|ENOTFOUND|ConnectionRefused|Unable to connect|fetch failed|socket hang up/i },
    { failure: "crash", pattern: /panic:|Segmentation fault|FATAL ERROR/ },
  ],
};
