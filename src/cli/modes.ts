import { TroupeError } from "../errors.ts";
import { runMode } from "../client/modes.ts";
import type { AgentMode } from "../protocol/work.ts";
import { clientEnv, connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export type CliMode = Exclude<AgentMode, "execute">;

/** `troupe discuss|plan|refine INITIATIVE`, `troupe detail PHASE`: the agent of that mode, as `spawn` starts one. */
export async function runModeCommand(mode: CliMode, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { provider: { type: "string" }, model: { type: "string" }, command: { type: "string" } });
  const what = mode === "detail" ? "PHASE (an id or <initiative>/<slug>)" : "INITIATIVE (an id or slug)";
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", `${mode} takes one ${what}`);
  const { client } = await connect(values.workspace);
  const agent = await runMode(client, mode, ref, { provider: values.provider, model: values.model, command: values.command, env: clientEnv() });
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} (${agent.id}) ${agent.status}: ${mode} ${ref}${agent.worktree ? ` in ${agent.worktree}` : ""}\n`);
  return 0;
}
