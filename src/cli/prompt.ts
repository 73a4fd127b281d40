import { TroupeError } from "../errors.ts";
import { AgentModeSchema, MODE_TARGET } from "../protocol/work.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stderr, stdout } from "./streams.ts";

const TARGETS = ["initiative", "phase", "task"] as const;

/** `troupe prompt --mode M [--task|--phase|--initiative REF] [--provider P]`: what an agent of that mode is told. */
export const command = defineCommand(
  {
    synopsis: "troupe prompt --mode MODE [--initiative REF | --phase REF | --task REF] [--provider P] [--json]",
    intro: `  MODE is discuss, plan or refine (on an initiative), detail (a phase) or execute (a task);
  the prompt is built as a spawn builds it, the agent's id and name shown as AGENT_ID and
  AGENT_NAME; without a ref, on a placeholder target (said on stderr)`,
    flags: {
      provider: { type: "string", arg: "P", help: "whose agent it is (default: claude): it decides how questions reach the agent" },
      mode: { type: "string", help: null },
      initiative: { type: "string", help: null },
      phase: { type: "string", help: null },
      task: { type: "string", help: null },
    },
    json: `{"mode", "provider", "placeholder", "blocks": [{"id", "text"}]}: the prompt is
the texts joined by blank lines`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const mode = AgentModeSchema.safeParse(values.mode);
  if (!mode.success) throw new TroupeError("usage", `prompt takes --mode ${AgentModeSchema.options.join("|")}`);
  const on = MODE_TARGET[mode.data];
  const wrong = TARGETS.find((t) => t !== on && values[t] !== undefined);
  if (wrong) throw new TroupeError("usage", `--mode ${mode.data} works on ${on === "initiative" ? "an" : "a"} ${on}: give --${on} REF, not --${wrong}`);
  const ref = values[on];
  const { client } = await connect(values.workspace);
  const res = await client.modePrompt(mode.data, { ref, provider: values.provider });
  if (res.placeholder) stderr.write(`troupe prompt: no --${on} given: a placeholder ${on}, its ids in capitals and no context files\n`);
  if (values.json) printJson({ mode: res.mode, provider: res.provider, placeholder: res.placeholder, blocks: res.blocks });
  else stdout.write(res.prompt);
  return 0;
}
