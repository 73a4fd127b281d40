import type { OutputEvent, Stream } from "../../src/protocol/output.ts";
import { isObject } from "../json-line.ts";
import type { CommandInput, LiveInput, PermissionMode, ProviderCommand } from "../types.ts";
import { inputLine } from "./lines.ts";
import { parseRunnerLine } from "./parse.ts";

/**
 * How a provider is driven over the Agent Client Protocol: the CLI's ACP command, and the ACP
 * session mode each troupe permission mode is (its `session/set_mode` id; the agent lists its
 * modes only once a session exists, inside the runner, so a mode it lacks is refused at spawn from
 * this map; null: the command's own flags realise it, no mode is set). Under `ask` every request
 * reaches the runner, which asks troupe's rules, then the person.
 */
export interface AcpTransport {
  argv(input: CommandInput): string[];
  /** The CLI's environment, where its config says what a mode allows (opencode's). */
  env?(input: CommandInput): Record<string, string>;
  modes: Partial<Record<PermissionMode, string | null>>;
}

/**
 * The session's command: the agent's own ACP command, which troupe's launch runs under its runner
 * (`troupe acp-run`, src/agents/start/mcp-config.ts), the prompt as the first line of its stdin and
 * its input folder its own (the runner claims each line as it prompts with it).
 */
export function acpCommand(t: AcpTransport, input: CommandInput, load?: { sessionId: string; after?: number }): ProviderCommand {
  const env = t.env?.(input);
  return {
    argv: t.argv(input),
    ...(env && { env }),
    stdin: `${inputLine(input.prompt)}\n`,
    stdinStream: true,
    ownInput: true,
    acp: {
      permissions: input.permissions,
      mode: t.modes[input.permissions] ?? null,
      // under ask the daemon applies the rules (and logs what they decide); else the runner does
      ...(input.permissions !== "ask" && input.allowedTools?.length && { allow: input.allowedTools }),
      ...(input.permissions !== "ask" && input.deniedTools?.length && { deny: input.deniedTools }),
      ...(load && { load: load.sessionId }),
      ...(load?.after !== undefined && { loadAfter: load.after }),
    },
  };
}

/** The permission modes the map realises, in troupe's order. */
export const acpModes = (t: AcpTransport): PermissionMode[] => (["skip", "edits", "plan", "ask"] as const).filter((m) => t.modes[m] !== undefined);

/** Messages into a running ACP session: a line of its input folder, given to the agent as (part of) its next prompt. */
export const acpLiveInput: LiveInput = { line: (text, id) => inputLine(text, id) };

/** A parser that reads the runner's lines, and gives every other line (a session from before, when the CLI ran headless) to `headless`. */
export function withRunnerLines(headless: (line: string, stream: Stream) => OutputEvent[]): (line: string, stream: Stream) => OutputEvent[] {
  return (line, stream) => {
    if (stream === "stdout" && (line.startsWith('{"acp":') || line.startsWith('{"troupe":'))) {
      try {
        const v: unknown = JSON.parse(line);
        const events = isObject(v) ? parseRunnerLine(v) : null;
        if (events) return events;
      } catch {
        // not a whole JSON line: the headless parser keeps it
      }
    }
    return headless(line, stream);
  };
}
