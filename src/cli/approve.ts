import { TroupeError } from "../errors.ts";
import { parse, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";
import { changedLines } from "./work-format.ts";

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { all: { type: "string" } });
  if ((positionals.length > 0) === (values.all !== undefined)) throw new TroupeError("usage", "approve takes IDs, or --all INITIATIVE");
  const { client } = await connect(values.workspace);
  const items = await client.approve(values.all !== undefined ? { all: values.all } : { ids: positionals });
  if (values.json) await printJson(items);
  else await stdout.write(changedLines("approved", items));
  return 0;
}
