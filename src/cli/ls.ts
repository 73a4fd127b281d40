import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { asciiFromEnv } from "../output/tree.ts";
import { agentRows } from "./format.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  { synopsis: "troupe ls [--json]", flags: {} },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const { client } = await connect(values.workspace);
  const agents = await client.listAgents();
  if (values.json) printJson(agents);
  else if (agents.length === 0) stdout.write("no agents; start one with 'troupe spawn'\n");
  else stdout.write(agentRows(agents, asciiFromEnv()));
  return 0;
}
