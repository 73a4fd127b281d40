import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { conversationRows } from "./format.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  { synopsis: "troupe conversations [--pending] [--json]", flags: { pending: { type: "boolean", help: null }, ...REMOTE_FLAG } },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const client = await commandClient(values.workspace, values.remote);
  const convs = await client.conversations({ pending: values.pending });
  if (values.json) printJson(convs);
  else if (convs.length === 0) stdout.write(values.pending ? "no pending conversations\n" : "no conversations\n");
  else stdout.write(conversationRows(convs));
  return 0;
}
