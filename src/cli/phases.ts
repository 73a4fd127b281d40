import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { connect } from "./context.ts";
import { stdout } from "./streams.ts";
import { treeText } from "./work-format.ts";

export const command = defineCommand(
  {
    synopsis: "troupe phases INITIATIVE [--json]",
    flags: {},
    json: `{"initiative": {...}, "phases": [{"id", "slug", "title", "status", "dependsOn", "reason", "pin", "tasks": [...]}]}
each task: id, slug, title, status, dependsOn, agent, branch, summary, reason, conflicts, files, waiting,
host, placement, pin, lostRuns [{host, agent, branch, lostAt, outcome}]`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "phases takes one INITIATIVE (id or slug)");
  const { client } = await connect(values.workspace);
  const tree = await client.phaseTree(ref);
  if (values.json) await printJson(tree);
  else await stdout.write(treeText(tree));
  return 0;
}
