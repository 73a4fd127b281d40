import { TroupeError } from "../errors.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/** `troupe diff AGENT`: the agent's work as its own daemon computes it, what the dashboard's `d` shows. */
export const command = defineCommand(
  {
    synopsis: "troupe diff AGENT [--json]",
    intro: `  what is committed on the agent's branch since its base, then what is uncommitted in its folder;
  --json: the lines as the daemon gives them ({"text", "kind", "section", "file", "old", "new"}),
  the numbers 'troupe review --comment FILE:LINE' takes`,
    flags: { ...REMOTE_FLAG },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "diff takes one AGENT (id or name)");
  const client = await commandClient(values.workspace, values.remote);
  const lines = await client.agentDiff(ref);
  if (values.json) await printJson(lines);
  else await stdout.write(lines.map((l) => `${l.text}\n`).join(""));
  return 0;
}
