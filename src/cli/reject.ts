import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";
import { changedLines } from "./work-format.ts";

export const command = defineCommand(
  {
    synopsis: "troupe reject ID --reason TEXT [--revise] [--json]",
    flags: {
      revise: { type: "boolean", help: "resume the agent that proposed it with the reason, to propose again" },
      reason: { type: "string", help: null },
    },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "reject takes one ID (a proposed phase or task, or an initiative with a proposed goal)");
  if (!values.reason?.trim()) throw new TroupeError("usage", "reject needs --reason TEXT");
  const { client } = await connect(values.workspace);
  const items = await client.reject(ref, { reason: values.reason, revise: values.revise ?? false });
  if (values.json) await printJson(items);
  else await stdout.write(changedLines("rejected", items) + (values.revise ? "sent back to the agent that proposed it\n" : ""));
  return 0;
}
