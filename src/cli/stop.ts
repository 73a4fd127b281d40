import { TroupeError } from "../errors.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  { synopsis: "troupe stop AGENT [--json]", flags: { ...REMOTE_FLAG } },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "stop takes one AGENT (id or name)");
  const client = await commandClient(values.workspace, values.remote);
  const agent = await client.stop(ref);
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} stopped\n`);
  return 0;
}
