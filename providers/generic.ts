import { TroupeError } from "../src/errors.ts";
import type { OutputEvent, Stream } from "../src/protocol/output.ts";
import { fitsInArgument, PROMPT_ARG_MAX_BYTES } from "./prompt-arg.ts";
import { askRefused } from "./refuse-mode.ts";
import type { CommandInput, InteractiveInput, Provider, ProviderCommand } from "./types.ts";

/**
 * Any command at all, run through `sh -c`: stdout lines are text, stderr lines are kept raw.
 * The prompt, if any, is handed over as $TROUPE_PROMPT for commands that want it. A resume runs
 * the same command again with the resume prompt (answers, message) in $TROUPE_PROMPT.
 */
function buildSpawn(input: CommandInput): ProviderCommand {
  // a shell command has no tool calls to route: `ask` would promise what nothing enforces
  if (input.permissions === "ask") throw askRefused("a shell command (the generic provider)");
  if (!input.command?.trim()) {
    throw new TroupeError("bad_request", "the generic provider runs a shell command: give one with --command");
  }
  // An environment variable has the kernel's argument limit, and the command's stdin is its own.
  if (!fitsInArgument(input.prompt)) {
    throw new TroupeError(
      "bad_request",
      `the prompt is too long for the generic provider: it goes in $TROUPE_PROMPT, which holds at most ${PROMPT_ARG_MAX_BYTES / 1024} KiB and no NUL byte; let the command read a file instead`,
    );
  }
  return {
    argv: ["sh", "-c", input.command],
    ...(input.prompt ? { env: { TROUPE_PROMPT: input.prompt } } : {}),
  };
}

/**
 * A shell command has no interactive mode of its own: attaching runs the agent's command again
 * on the person's terminal, with TROUPE_ATTACHED=1 so that it can tell (and read the keyboard).
 */
function interactive(input: InteractiveInput): ProviderCommand {
  if (!input.command?.trim()) throw new TroupeError("invalid_state", "this agent has no command to run");
  return { argv: ["sh", "-c", input.command], env: { TROUPE_ATTACHED: "1" } };
}

function parseLine(line: string, stream: Stream): OutputEvent[] {
  return stream === "stdout" ? [{ kind: "text", text: line }] : [{ kind: "raw", line }];
}

export const generic: Provider = {
  name: "generic",
  displayName: "Shell command",
  binary: null,
  install: "nothing to install: give any shell command with --command",
  versionArgs: [],
  accountEnv: null,
  tokenEnv: null,
  credentialEnv: [],
  buildSpawn,
  buildResume: buildSpawn,
  interactive,
  resumesWithoutSession: true,
  ignoresPermissions: true,
  permissionModes: ["skip", "edits", "plan"],
  parseLine,
  errorPatterns: [],
};
