import { TroupeError } from "../errors.ts";
import { connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "stop takes one AGENT (id or name)");
  const { client } = await connect(values.workspace);
  const agent = await client.stop(ref);
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} stopped\n`);
  return 0;
}
