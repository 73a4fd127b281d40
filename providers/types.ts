import type { OutputEvent, Stream } from "../src/protocol/output.ts";

import type { PermissionMode } from "../src/protocol/permission-modes.ts";
import type { McpServer } from "../src/protocol/profile.ts";

export type { PermissionMode };

export interface CommandInput {
  prompt: string;
  cwd: string;
  model?: string;
  /** The provider's own session id, present when resuming. */
  sessionId?: string;
  /** When resuming, for a provider with `resumeReadsSessionAge`: the session began no later than this (epoch ms). */
  sessionSeenAt?: number;
  permissions: PermissionMode;
  /** Allow rules (`Read`, `Bash(npm test*)`), for providers that take an allow-list; `ask` applies them in the daemon instead. */
  allowedTools?: string[];
  /** Deny rules, for providers that take a deny-list; `ask` applies them in the daemon instead. */
  deniedTools?: string[];
  /** The shell command of the generic provider. */
  command?: string;
  /** Spend limit in USD left for this run, for a CLI that enforces one itself. */
  budgetUsd?: number;
  /**
   * A profile's instructions (its body). A provider with `takesSystemPrompt` passes them as a
   * system prompt; every other gets them before the prompt (`buildWithRole` in providers/role.ts).
   */
  instructions?: string;
  /** A profile's MCP servers (only providers that take them: profiles for others are refused). */
  mcpServers?: Record<string, McpServer>;
  /** The spawning environment; a provider may read it (IS_SANDBOX, uid) but not change it. */
  env: Readonly<Record<string, string>>;
}

export interface ProviderCommand {
  argv: string[];
  /** Variables the provider needs on top of the agent's environment. */
  env?: Record<string, string>;
  /** Text written to the process's stdin, for CLIs that read the prompt there. */
  stdin?: string;
  /**
   * Its stdin stays open after `stdin` (the prompt, as the first line): troupe writes user
   * messages into it while the run goes on (`Provider.liveInput`) and closes it once a turn
   * ended with nothing left to deliver (src/live/).
   */
  stdinStream?: boolean;
  /**
   * With `stdinStream`: the command takes its input folder itself (the ACP runner claims each line
   * when it prompts the agent with it), so no feeder copies lines into its stdin; the folder's
   * path is in $TROUPE_SESSION_INPUT.
   */
  ownInput?: boolean;
  /** Present when the command is an ACP agent's: troupe's launch runs it under its runner (`troupe acp-run`). */
  acp?: AcpLaunch;
}

/** What the ACP runner of a session is told. */
interface AcpLaunch {
  permissions: PermissionMode;
  /** The ACP session mode to set (null: the agent's default). */
  mode: string | null;
  /** The ACP session to load (a resume). */
  load?: string;
  /** The earliest the agent may be started to load it (epoch ms), when the agent cannot load it sooner. */
  loadAfter?: number;
  /** Under a mode that asks no one: the agent's allow and deny rules, which its runner applies to what the agent asks (troupe's own commands are allowed besides). */
  allow?: string[];
  deny?: string[];
}

/**
 * How a CLI takes user messages while a run goes on: its stdin is a stream of lines, the prompt
 * first, each further line one message; the CLI says it took a line by echoing it on stdout.
 */
export interface LiveInput {
  /** One user message as one line of the CLI's stdin (no newline): `id` comes back in the `input` event `parseLine` makes of its echo. */
  line(text: string, id?: string): string;
}

/** What the person's interactive run of an agent's session is built from (`troupe attach`). */
export interface InteractiveInput {
  /** The provider's own session id ("" for a provider that resumes without one). */
  sessionId: string;
  cwd: string;
  model?: string;
  /** The generic provider's shell command. */
  command?: string;
  env: Readonly<Record<string, string>>;
}

/** troupe's own MCP server (`troupe mcp`), as an agent's CLI is to start it. */
export interface McpServerSpec {
  /** Absolute path of troupe, and its arguments (`["mcp"]`). */
  command: string;
  args: string[];
  /** Variables the server needs from the agent's environment (its identity and socket): a CLI that filters its MCP servers' environment must pass these. */
  envNames: string[];
  /** The longest a tool call may take: a supervisor's handoff waits for its worker. */
  toolTimeoutMs: number;
  /** The agent's input folder (`.troupe/input/`, the user's alone), where config files go. */
  inputDir: string;
  /** The session's permission mode: where the CLI itself asks before tools, troupe's own are allowed to it. */
  permissions: PermissionMode;
}

/** What configures troupe's MCP server for one session, never touching the person's own config files. */
export interface McpInjection {
  /** Inserted right after the executable (before any subcommand or prompt). */
  args: string[];
  env?: Record<string, string>;
  /** Files to write before the session starts: absolute path (inside `inputDir`) → content. */
  files?: Record<string, string>;
}

import type { FailureClass } from "../src/protocol/failure.ts";

export type { FailureClass };

export interface ErrorPattern {
  failure: FailureClass;
  pattern: RegExp;
}

/** The contract every agent CLI adapter implements: adding a provider is adding a file. */
export interface Provider {
  name: string;
  displayName: string;
  /** Executable looked up on PATH; null when the command is user-given (generic). */
  binary: string | null;
  /** One line telling a person how to install the CLI. */
  install: string;
  versionArgs: string[];
  /** Environment variable that points the CLI at an account's config folder. */
  accountEnv: string | null;
  /** Environment variable that gives the CLI an account's token (`troupe account add --token`). */
  tokenEnv: string | null;
  /**
   * Where under HOME the CLI keeps its login, settings and sessions when `accountEnv` is unset: all
   * of HOME a sandboxed agent gets (src/sandbox/), writable (the CLIs write their sessions there).
   * A folder ends with `/` and is made when missing (the CLI would make it); a file is bound when it exists.
   */
  home?: readonly string[];
  /**
   * The CLI's own sandbox turned off, for a run inside troupe's, where it could not nest (Codex's
   * and Claude Code's bubblewrap, Gemini's and Qwen's containers); troupe's sandbox enforces
   * `edits` and `plan` then. `argv`: the command changed; `env`: variables set inside. Absent:
   * the CLI has no sandbox of its own.
   */
  ownSandboxOff?: { argv?: (argv: string[]) => string[]; env?: Readonly<Record<string, string>> };
  /**
   * The model API the CLI talks to, which network `allow` lets through without being named: its
   * hosts, and the variables whose URL, when set, points the CLI elsewhere (that URL's host is added).
   */
  api?: { hosts: readonly string[]; urlEnv: readonly string[] };
  /**
   * The CLI's credential variables: an agent on an account gets none of these from the spawning
   * environment, only the account's own, so it really runs on that account.
   */
  credentialEnv: readonly string[];
  buildSpawn(input: CommandInput): ProviderCommand;
  /** Null when the CLI cannot resume a session. */
  buildResume: ((input: CommandInput & { sessionId: string }) => ProviderCommand) | null;
  /**
   * The CLI's own interactive mode resuming the session, run on the person's terminal by
   * `troupe attach` (no prompt: the person types); absent when the CLI has none.
   */
  interactive?: (input: InteractiveInput) => ProviderCommand;
  /**
   * Where the CLI keeps its own transcript of a session, as JSON lines `parseLine` reads: what an
   * interactive session said is kept from there (the terminal's screen is not). Absent: nothing is.
   */
  transcript?: (input: InteractiveInput) => string | null;
  /** How this CLI gets troupe's MCP server, so agents have troupe's tools natively; absent when it cannot. */
  mcp?: (server: McpServerSpec) => McpInjection;
  /**
   * The permission modes this CLI honours headless (`troupe providers` shows them); a spawn or
   * resume in another is refused in one line naming the CLI (providers/refuse-mode.ts).
   */
  permissionModes: readonly PermissionMode[];
  /**
   * True when the CLI can run under `ask`: it asks troupe's MCP tool `permission` about each tool
   * call its rules do not allow (Claude Code's --permission-prompt-tool). Others refuse `ask`.
   */
  routesPermissions?: boolean;
  /** True when no permission mode restricts what runs: the generic provider runs the person's own command. */
  ignoresPermissions?: boolean;
  /** True when the CLI takes `instructions` as a system prompt of their own; else they go before the prompt. */
  takesSystemPrompt?: boolean;
  /**
   * Present when the CLI takes user messages while a run goes on (a running session can be
   * reached): its commands then set `stdinStream`, and its mode prompts carry `listen.live`
   * instead of looking with `troupe listen` between steps (`listen.poll`).
   */
  liveInput?: LiveInput;
  /**
   * True when its plan reaches troupe, proven by its e2e: ACP `plan` updates, or the list its
   * to-do tool is called with (providers/plan.ts). Gemini CLI 0.61 and Qwen Code 0.24 give none
   * (Qwen's todo_write is not among its default tools).
   */
  reportsPlan?: boolean;
  /** "acp": driven over the Agent Client Protocol, its commands run under troupe's runner (providers/acp/); absent: headless. */
  transport?: "acp";
  /** True when its resume depends on when the session began: `buildResume` is then given `sessionSeenAt`. */
  resumeReadsSessionAge?: boolean;
  /** True when a resume needs no session id from the CLI's output (sessionId is then ""). */
  resumesWithoutSession?: boolean;
  /** The CLI's version troupe was last proven with: fixtures recorded from it, its e2e test run against it. Absent: never run here. */
  provenWith?: string;
  /** The npm package the CLI installs from (`npm run check:clis` tries its newest release). */
  npmPackage?: string;
  /** Present when the executable is an ACP adapter of another CLI, which it embeds (codex-acp's Codex): that CLI, and its version as the adapter's build names it. */
  adapterOf?: { cli: string; version: string };
  /** What its output tells troupe: the cost of a run in US dollars (else tokens at most). */
  reportsCost?: boolean;
  /** Pure: one complete output line (no newline) to zero or more events. Never throws. */
  parseLine(line: string, stream: Stream): OutputEvent[];
  errorPatterns: ErrorPattern[];
}
