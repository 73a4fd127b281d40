import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { stdout } from "./streams.ts";
import { changedLines } from "./work-format.ts";

export const command = defineCommand(
  {
    synopsis: "troupe approve ID... | --all INITIATIVE [--json]",
    intro: "  ID is a phase or task (id or INITIATIVE/SLUG), or an initiative whose revised goal to accept",
    flags: { all: { type: "string", help: "every proposed phase and task of the initiative" }, ...REMOTE_FLAG },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if ((positionals.length > 0) === (values.all !== undefined)) throw new TroupeError("usage", "approve takes IDs, or --all INITIATIVE");
  const client = await commandClient(values.workspace, values.remote);
  const items = await client.approve(values.all !== undefined ? { all: values.all } : { ids: positionals });
  if (values.json) await printJson(items);
  else await stdout.write(changedLines("approved", items));
  return 0;
}
