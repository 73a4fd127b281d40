import { TroupeError } from "../errors.ts";
import { modePrompt } from "../client/modes.ts";
import { AgentModeSchema, MODE_TARGET } from "../protocol/work.ts";
import { connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { stderr, stdout } from "./streams.ts";

const TARGETS = ["initiative", "phase", "task"] as const;

/** `troupe prompt --mode M [--task|--phase|--initiative REF] [--provider P]`: what an agent of that mode is told. */
export async function run(args: string[]): Promise<number> {
  const { values } = parse(args, { mode: { type: "string" }, provider: { type: "string" }, initiative: { type: "string" }, phase: { type: "string" }, task: { type: "string" } }, false);
  const mode = AgentModeSchema.safeParse(values.mode);
  if (!mode.success) throw new TroupeError("usage", `prompt takes --mode ${AgentModeSchema.options.join("|")}`);
  const on = MODE_TARGET[mode.data];
  const wrong = TARGETS.find((t) => t !== on && values[t] !== undefined);
  if (wrong) throw new TroupeError("usage", `--mode ${mode.data} works on ${on === "initiative" ? "an" : "a"} ${on}: give --${on} REF, not --${wrong}`);
  const ref = values[on];
  const { client } = await connect(values.workspace);
  const res = await modePrompt(client, mode.data, { ref, provider: values.provider });
  if (res.placeholder) stderr.write(`troupe prompt: no --${on} given: a placeholder ${on}, its ids in capitals and no context files\n`);
  if (values.json) printJson({ mode: res.mode, provider: res.provider, placeholder: res.placeholder, blocks: res.blocks });
  else stdout.write(res.prompt);
  return 0;
}
