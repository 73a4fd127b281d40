import { TroupeError } from "../errors.ts";
import { runMode } from "../client/modes.ts";
import type { AgentMode } from "../protocol/work.ts";
import { clientEnv, connect } from "./context.ts";
import { defineCommand, printJson, type Command } from "./command.ts";
import { stdout } from "./streams.ts";

export type CliMode = Exclude<AgentMode, "execute">;

const FLAGS = {
  provider: { type: "string", arg: "P", help: "the agent CLI (default: claude; generic with --command)" },
  model: { type: "string", arg: "M", help: "the provider's model" },
  command: { type: "string", arg: "CMD", help: "a shell command to run as the agent (generic provider; the prompt is in $TROUPE_PROMPT)" },
} as const;

/** `troupe discuss|plan|refine INITIATIVE`, `troupe detail PHASE`: the agent of that mode, as `spawn` starts one. */
export function modeCommand(mode: CliMode): Command<typeof FLAGS> {
  const cmd: Command<typeof FLAGS> = defineCommand(
    {
      synopsis: `troupe ${mode} ${mode === "detail" ? "PHASE" : "INITIATIVE"} [--provider P] [--model M] [--command CMD] [--json]`,
      flags: FLAGS,
      json: "print the agent as JSON",
    },
    (args): Promise<number> => runMode_(cmd, mode, args),
  );
  return cmd;
}

async function runMode_(cmd: Command<typeof FLAGS>, mode: CliMode, args: string[]): Promise<number> {
  const { values, positionals } = cmd.parse(args);
  const what = mode === "detail" ? "PHASE (an id or <initiative>/<slug>)" : "INITIATIVE (an id or slug)";
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", `${mode} takes one ${what}`);
  const { client } = await connect(values.workspace);
  const agent = await runMode(client, mode, ref, { provider: values.provider, model: values.model, command: values.command, env: clientEnv() });
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} (${agent.id}) ${agent.status}: ${mode} ${ref}${agent.worktree ? ` in ${agent.worktree}` : ""}\n`);
  return 0;
}
