import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe pin PHASE|TASK HOST|none [--json]",
    flags: {},
    json: `{"initiatives": [], "phases": [...], "tasks": [...]}: the phase or task pinned`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, host, ...extra] = positionals;
  if (!ref || !host || extra.length) throw new TroupeError("usage", "pin takes a PHASE or TASK (id or INITIATIVE/SLUG) and a HOST of the pool ('troupe hosts'), or none");
  const { client } = await connect(values.workspace);
  const items = await client.pin(ref, { host: host === "none" ? null : host });
  if (values.json) {
    await printJson(items);
    return 0;
  }
  const item = items.phases[0] ?? items.tasks[0];
  const kind = items.phases[0] ? "phase" : "task";
  const what = kind === "phase" ? "its tasks run" : "it runs";
  await stdout.write(item?.pin ? `${kind} ${item.slug}: ${what} on ${item.pin} only\n` : `${kind} ${item?.slug ?? ref}: unpinned; dispatch places it\n`);
  return 0;
}
