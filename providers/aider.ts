import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { fitsInArgument } from "./prompt-arg.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, PermissionMode, Provider, ProviderCommand } from "./types.ts";

/**
 * Aider, `aider --message <prompt>` (documented behaviour; not installed here). Aider has no
 * structured output: every stdout line is text. It has no session ids either: its chat
 * history file is the session, so troupe keeps it in the worktree's `.troupe/` and names
 * that file as the session id, which `--restore-chat-history` then reloads.
 */
export const AIDER_CHAT_HISTORY = ".troupe/aider/chat.history.md";
const AIDER_INPUT_HISTORY = ".troupe/aider/input.history";

function permissionArgs(mode: PermissionMode): string[] {
  switch (mode) {
    case "skip":
      return [];
    case "edits":
      // Aider's only non-edit action is running the shell commands it suggests.
      return ["--no-suggest-shell-commands"];
    case "plan":
      return ["--chat-mode", "ask"];
    case "ask":
      throw askRefused("Aider (--message)");
  }
}

/**
 * `=` so a prompt starting with "-" stays the option's value. A long one goes on stdin, which
 * `--message-file` reads through /dev/stdin.
 */
function message(prompt: string): ProviderCommand {
  return fitsInArgument(prompt) ? { argv: [`--message=${prompt}`] } : { argv: ["--message-file=/dev/stdin"], stdin: prompt };
}

function command(input: CommandInput, chatHistory: string, resume: string[]): ProviderCommand {
  const msg = message(input.prompt);
  return { ...msg, argv: ["aider", ...msg.argv, ...args(input, chatHistory), ...resume] };
}

function args(input: CommandInput, chatHistory: string): string[] {
  return [
    "--yes-always",
    "--no-pretty",
    "--no-fancy-input",
    "--no-check-update",
    "--no-show-release-notes",
    // Neither touch .gitignore nor scatter history files over the worktree.
    "--no-gitignore",
    "--chat-history-file",
    chatHistory,
    "--input-history-file",
    AIDER_INPUT_HISTORY,
    ...permissionArgs(input.permissions),
    ...(input.model ? ["--model", input.model] : []),
  ];
}

function buildSpawn(input: CommandInput): ProviderCommand {
  return command(input, AIDER_CHAT_HISTORY, []);
}

/** The session id is the chat history file the spawn reported; a resume reloads it. */
function buildResume(input: CommandInput & { sessionId: string }): ProviderCommand {
  return command(input, input.sessionId, ["--restore-chat-history"]);
}

const BANNER = /^Aider v\d/;

function parseLine(line: string, stream: Stream): OutputEvent[] {
  if (stream === "stderr") return [{ kind: "raw", line }];
  const text: OutputEvent = { kind: "text", text: line };
  // The start banner is the one line every run prints: it marks the (file-based) session.
  return BANNER.test(line) ? [text, { kind: "session", sessionId: AIDER_CHAT_HISTORY }] : [text];
}

export const aider: Provider = {
  name: "aider",
  displayName: "Aider",
  binary: "aider",
  install: "python -m pip install aider-install && aider-install",
  // never run here: Aider installs from PyPI only, which troupe's machines cannot reach
  permissionModes: ["skip", "edits", "plan"],
  versionArgs: ["--version"],
  // Aider reads API keys from the environment and .aider.conf.yml; it has no config-dir variable.
  accountEnv: null,
  tokenEnv: null,
  home: [".aider.conf.yml", ".aider/"],
  credentialEnv: [],
  buildSpawn,
  buildResume,
  parseLine,
  errorPatterns: [
    {
      failure: "auth",
      pattern: /AuthenticationError|invalid x-api-key|Incorrect API key|API key not valid|invalid api key|Missing .*API_KEY|No API key/i,
    },
    {
      failure: "usage_limit",
      pattern: /insufficient_quota|exceeded your current quota|credit balance is too low|usage limit/i,
    },
    { failure: "rate_limit", pattern: /RateLimitError|rate limit/i },
    { failure: "overloaded", pattern: /ServiceUnavailableError|InternalServerError|overloaded/i },
    { failure: "timeout", pattern: /\bTimeout\b|timed out/i },
    {
      failure: "network",
      pattern: /APIConnectionError|Connection error|Name or service not known|Temporary failure in name resolution/i,
    },
    { failure: "crash", pattern: /Traceback \(most recent call last\)/ },
  ],
};
