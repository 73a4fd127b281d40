import { AGENT_OWN_COMMANDS } from "../../src/protocol/own-commands.ts";
import { join } from "node:path";
import type { CommandInput, InteractiveInput, McpInjection, McpServerSpec, PermissionMode, Provider, ProviderCommand } from "../types.ts";
import { claudeErrorPatterns, parseClaudeLine } from "./parse.ts";

/**
 * Claude Code, `claude -p --output-format stream-json --verbose` (proven with 2.1.332): the
 * command, its permission flags, troupe's MCP server and the session's transcript. Its output is
 * read by ./parse.ts.
 *
 * Its stdin is a stream of user messages (`--input-format stream-json`, one JSON line each, the
 * prompt first; a prompt argument is ignored then). Checked with 2.1.197: a line written while a
 * tool runs is folded into the conversation after that tool's result ("The user sent a new
 * message while you were working"); one written after a `result` starts a new turn; the run ends
 * once stdin is closed and the turn under way is over. `--replay-user-messages` echoes each line
 * as it is taken in (a `user` line with `isReplay` and the `uuid` the line carried). A line that
 * is not valid JSON ends the run with an error, so lines are written whole (src/live/).
 */

/** The MCP tool `ask` points Claude Code at: troupe's server is injected as `troupe` (src/agents/start/mcp-config.ts). */
const CLAUDE_PERMISSION_TOOL = "mcp__troupe__permission";

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
function claudeMcp(server: McpServerSpec): McpInjection {
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
  // In plan mode Claude Code (2.1.332) refuses every MCP tool not marked readOnlyHint whatever the
  // rules say ("Cannot call mcp__troupe__handoff while in plan mode."): troupe's reads stay callable.
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
  permissionModes: ["skip", "edits", "plan", "ask"],
  provenWith: "2.1.332",
  npmPackage: "@anthropic-ai/claude-code",
  reportsCost: true,
  versionArgs: ["--version"],
  accountEnv: "CLAUDE_CONFIG_DIR",
  api: { hosts: ["api.anthropic.com:443"], urlEnv: ["ANTHROPIC_BASE_URL"] },
  takesSystemPrompt: true,
  // a long-lived OAuth token (`claude setup-token`); API keys of the spawning env would win over it
  tokenEnv: "CLAUDE_CODE_OAUTH_TOKEN",
  home: [".claude/", ".claude.json"],
  // its settings' sandbox.enabled (bubblewrap) could not nest in troupe's; the flag's settings win over the user's
  ownSandboxOff: { argv: ([bin = "claude", ...rest]) => [bin, `--settings=${JSON.stringify({ sandbox: { enabled: false } })}`, ...rest] },
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
