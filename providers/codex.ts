import type { OutputEvent } from "../src/protocol/output.ts";
import { jsonlStdout, num, obj, str, stringify, type JsonObject } from "./json-line.ts";
import { fitsInArgument } from "./prompt-arg.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, ErrorPattern, McpInjection, McpServerSpec, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * Codex's sandbox gives a command no socket unless it has network, the Unix socket `troupe signal`
 * speaks over included ("Operation not permitted", checked with 0.171 and codex-acp 0.16): so a
 * sandboxed agent could never signal. The sandbox that writes the workspace gets network, and the
 * read-only one is a permission profile (`default_permissions`) extending `:read-only` with it:
 * nothing is written, troupe is reached. `-c key=TOML` overrides, so `~/.codex/config.toml` is untouched.
 */
export const CODEX_SANDBOX = {
  workspaceWrite: ["sandbox_mode=\"workspace-write\"", "sandbox_workspace_write.network_access=true"],
  readOnly: ["default_permissions=\"troupe_read_only\"", "permissions.troupe_read_only.extends=\":read-only\"", "permissions.troupe_read_only.network.enabled=true"],
};

/** `-c` flags, each override its own. */
export const overrides = (values: string[]): string[] => values.flatMap((v) => ["-c", v]);

const OWN_SANDBOX = new Set([...CODEX_SANDBOX.workspaceWrite, ...CODEX_SANDBOX.readOnly]);

/**
 * Codex's argv with its own sandbox off, for a run inside troupe's (src/sandbox/): Codex's
 * bubblewrap cannot nest in a sandbox without capabilities, so its commands would not run at
 * all. troupe's sandbox then enforces the mode (edits: the worktree writable; plan: nothing).
 */
export function withoutOwnSandbox(argv: string[]): string[] {
  const out: string[] = [];
  let at = -1;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "-c" && OWN_SANDBOX.has(argv[i + 1]!)) {
      if (at < 0) at = out.length;
      i++;
      continue;
    }
    out.push(argv[i]!);
  }
  if (at >= 0) out.splice(at, 0, "-c", `sandbox_mode="danger-full-access"`);
  return out;
}

/**
 * OpenAI Codex CLI, `codex exec --json` (checked against codex-cli 0.169). This version has
 * no `--full-auto`; exec never asks for approval, so the sandbox is the permission knob.
 * `exec resume` takes no `--sandbox`, but exec-level flags given before `resume` apply to it.
 */
function permissionArgs(mode: PermissionMode): string[] {
  switch (mode) {
    case "skip":
      return ["--dangerously-bypass-approvals-and-sandbox"];
    case "edits":
      return overrides(CODEX_SANDBOX.workspaceWrite);
    case "plan":
      return overrides(CODEX_SANDBOX.readOnly);
    case "ask":
      throw askRefused("Codex (exec)");
  }
}

/** Flags shared by spawn and resume; `--skip-git-repo-check` because `--no-worktree` may run outside a repo. */
function execArgs(input: CommandInput): string[] {
  return [
    "exec",
    "--json",
    "--skip-git-repo-check",
    ...permissionArgs(input.permissions),
    ...(input.model ? ["--model", input.model] : []),
  ];
}

/** The prompt argument, or `-`, which makes both `exec` and `exec resume` read it from stdin. */
function withPrompt(argv: string[], prompt: string): ProviderCommand {
  return fitsInArgument(prompt) ? { argv: [...argv, prompt] } : { argv: [...argv, "-"], stdin: prompt };
}

function buildSpawn(input: CommandInput): ProviderCommand {
  // `--` so a prompt starting with "-" is not read as a flag.
  return withPrompt(["codex", ...execArgs(input), "--"], input.prompt);
}

function buildResume(input: CommandInput & { sessionId: string }): ProviderCommand {
  return withPrompt(["codex", ...execArgs(input), "resume", "--", input.sessionId], input.prompt);
}

/**
 * Config overrides (`-c key=TOML`, before `exec`), so `~/.codex/config.toml` is untouched. Codex
 * starts MCP servers with a minimal environment: `env_vars` forwards the agent's identity. Its
 * default tool timeout is 60 s; `approve` runs troupe's tools without asking (exec cannot ask).
 */
export function codexMcp(server: McpServerSpec): McpInjection {
  const set = (key: string, value: unknown) => ["-c", `mcp_servers.troupe.${key}=${JSON.stringify(value)}`];
  return {
    args: [
      ...set("command", server.command),
      ...set("args", server.args),
      ...set("env_vars", server.envNames),
      ...set("tool_timeout_sec", Math.ceil(server.toolTimeoutMs / 1000)),
      ...set("default_tools_approval_mode", "approve"),
    ],
  };
}

function itemEvents(type: string, item: JsonObject): OutputEvent[] | null {
  const id = str(item.id);
  const kind = str(item.type);
  const started = type === "item.started";
  const completed = type === "item.completed";
  switch (kind) {
    case "agent_message":
    case "reasoning": {
      const text = str(item.text);
      return completed && text ? [{ kind: "text", text }] : [];
    }
    case "command_execution": {
      if (started) return [{ kind: "tool_use", id, name: "shell", input: stringify(item.command) }];
      if (!completed) return [];
      const exit = num(item.exit_code);
      const isError = str(item.status) === "failed" || (exit !== undefined && exit !== 0);
      return [{ kind: "tool_result", id, output: stringify(item.aggregated_output), isError }];
    }
    case "file_change": {
      // Codex reports a patch only once it is applied, so one line carries both halves.
      if (!completed) return [];
      const changes = Array.isArray(item.changes) ? item.changes : [];
      const input = changes
        .map((c) => `${str(obj(c)?.kind) ?? "update"} ${str(obj(c)?.path) ?? "?"}`)
        .join("\n");
      const isError = str(item.status) === "failed";
      return [
        { kind: "tool_use", id, name: "apply_patch", input },
        { kind: "tool_result", id, output: str(item.status) ?? "", isError },
      ];
    }
    case "mcp_tool_call": {
      const name = `${str(item.server) ?? "mcp"}.${str(item.tool) ?? "?"}`;
      if (started) return [{ kind: "tool_use", id, name, input: stringify(item.arguments) }];
      if (!completed) return [];
      const error = str(obj(item.error)?.message);
      const output = error ?? stringify(obj(item.result)?.content ?? item.result);
      return [{ kind: "tool_result", id, output, isError: error !== undefined || str(item.status) === "failed" }];
    }
    case "web_search":
      return started || completed ? [{ kind: "tool_use", id, name: "web_search", input: stringify(item.query) }] : [];
    case "todo_list": {
      const items = Array.isArray(item.items) ? item.items : [];
      const text = items
        .map((t) => `${obj(t)?.completed === true ? "[x]" : "[ ]"} ${str(obj(t)?.text) ?? ""}`)
        .join("\n");
      return text ? [{ kind: "text", text }] : [];
    }
    case "error": {
      const message = str(item.message);
      return message ? [{ kind: "error", message }] : null;
    }
    default:
      return null;
  }
}

function parseEvent(event: JsonObject): OutputEvent[] | null {
  const type = str(event.type);
  switch (type) {
    case "thread.started": {
      const sessionId = str(event.thread_id);
      return sessionId ? [{ kind: "session", sessionId }] : null;
    }
    case "turn.started":
      return [];
    case "item.started":
    case "item.updated":
    case "item.completed": {
      const item = obj(event.item);
      return item ? itemEvents(type, item) : null;
    }
    case "turn.completed": {
      const usage = obj(event.usage);
      return [
        {
          kind: "result",
          isError: false,
          inputTokens: num(usage?.input_tokens),
          outputTokens: num(usage?.output_tokens),
        },
      ];
    }
    case "turn.failed": {
      const message = str(obj(event.error)?.message) ?? "turn failed";
      return [
        { kind: "error", message },
        { kind: "result", isError: true, text: message },
      ];
    }
    case "error": {
      const message = str(event.message);
      return message ? [{ kind: "error", message }] : null;
    }
    default:
      return null;
  }
}

// stderr holds tracing logs and warnings, never the JSONL protocol.
const parseLine = jsonlStdout(parseEvent);

/** Matched against stderr, error events and result text; the first match wins (Zed's codex-acp, which embeds Codex, says the same). */
export const CODEX_ERROR_PATTERNS: ErrorPattern[] = [
  // a fixed refusal: running again cannot help
  { failure: "setup", pattern: /Not inside a trusted directory|--skip-git-repo-check was not specified|unexpected argument/i },
  {
    failure: "auth",
    pattern:
      /401 Unauthorized|invalid_api_key|Incorrect API key|Missing bearer|not logged in|codex login|refresh token|token_expired|Missing environment variable: `?OPENAI_API_KEY/i,
  },
  {
    failure: "usage_limit",
    pattern:
      /usage limit|usage_limit_reached|insufficient_quota|quota exceeded|exceeded your current quota/i,
  },
  { failure: "rate_limit", pattern: /rate limit|rate_limit_exceeded|429 Too Many Requests/i },
  { failure: "overloaded", pattern: /experiencing high demand|503 Service Unavailable|502 Bad Gateway|server_is_overloaded|overloaded/i },
  { failure: "timeout", pattern: /idle timeout|timed out waiting|request timed out/i },
  {
    failure: "network",
    pattern:
      /stream disconnected|error sending request|failed to lookup address|Name does not resolve|Connection refused|Reconnecting\.\.\.|waiting for network/i,
  },
  { failure: "crash", pattern: /panicked at|stack overflow|SIGSEGV|SIGABRT/ },
];

export const codex: Provider = {
  name: "codex",
  displayName: "Codex CLI",
  binary: "codex",
  install: "npm install -g @openai/codex",
  permissionModes: ["skip", "edits", "plan"],
  provenWith: "0.171.0",
  npmPackage: "@openai/codex",
  versionArgs: ["--version"],
  accountEnv: "CODEX_HOME",
  api: { hosts: ["api.openai.com:443", "chatgpt.com:443"], urlEnv: ["OPENAI_BASE_URL"] },
  // `codex exec` reads CODEX_API_KEY; OPENAI_API_KEY of the spawning env would win over a CODEX_HOME login
  tokenEnv: "CODEX_API_KEY",
  ownSandboxOff: { argv: withoutOwnSandbox },
  home: [".codex/"],
  credentialEnv: ["OPENAI_API_KEY", "CODEX_API_KEY"],
  buildSpawn,
  buildResume,
  // the interactive TUI's own resume subcommand (`codex resume SESSION_ID`)
  interactive: (input) => ({ argv: ["codex", "resume", input.sessionId] }),
  mcp: codexMcp,
  parseLine,
  errorPatterns: CODEX_ERROR_PATTERNS,
};
