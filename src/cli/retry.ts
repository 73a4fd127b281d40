import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  { synopsis: "troupe retry TASK [--json]", flags: {} },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "retry takes one TASK (id or INITIATIVE/SLUG)");
  const { client } = await connect(values.workspace);
  const task = await client.retry(ref);
  if (values.json) await printJson(task);
  else await stdout.write(`task ${task.slug} (${task.id}) is ${task.status} again\n`);
  return 0;
}
