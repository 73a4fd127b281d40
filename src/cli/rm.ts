import { TroupeError } from "../errors.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe rm [--force] AGENT [AGENT ...]",
    intro: `  refuses an agent whose worktree has uncommitted changes, naming them;
  --force saves them as a commit on the agent's branch first (branches always stay)`,
    flags: { force: { type: "boolean", short: "f", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if (!positionals.length) throw new TroupeError("usage", "rm takes one or more AGENTs (id or name)");
  const { client } = await connect(values.workspace);
  for (const ref of positionals) await client.remove(ref, { force: values.force });
  if (values.json) printJson({ removed: positionals });
  else stdout.write(`removed ${positionals.join(", ")}\n`);
  return 0;
}
