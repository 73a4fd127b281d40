import { connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { conversationRows } from "./format.ts";
import { stdout } from "./streams.ts";

export async function run(args: string[]): Promise<number> {
  const { values } = parse(args, { pending: { type: "boolean" } }, false);
  const { client } = await connect(values.workspace);
  const convs = await client.conversations({ pending: values.pending });
  if (values.json) printJson(convs);
  else if (convs.length === 0) stdout.write(values.pending ? "no pending conversations\n" : "no conversations\n");
  else stdout.write(conversationRows(convs));
  return 0;
}
