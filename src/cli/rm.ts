import { TroupeError } from "../errors.ts";
import { connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { force: { type: "boolean", short: "f" } });
  if (!positionals.length) throw new TroupeError("usage", "rm takes one or more AGENTs (id or name)");
  const { client } = await connect(values.workspace);
  for (const ref of positionals) await client.remove(ref, { force: values.force });
  if (values.json) printJson({ removed: positionals });
  else stdout.write(`removed ${positionals.join(", ")}\n`);
  return 0;
}
