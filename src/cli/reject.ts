import { TroupeError } from "../errors.ts";
import { parse, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";
import { changedLines } from "./work-format.ts";

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { reason: { type: "string" }, revise: { type: "boolean" } });
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "reject takes one ID (a proposed phase or task, or an initiative with a proposed goal)");
  if (!values.reason?.trim()) throw new TroupeError("usage", "reject needs --reason TEXT");
  const { client } = await connect(values.workspace);
  const items = await client.reject(ref, { reason: values.reason, revise: values.revise ?? false });
  if (values.json) await printJson(items);
  else await stdout.write(changedLines("rejected", items) + (values.revise ? "sent back to the agent that proposed it\n" : ""));
  return 0;
}
