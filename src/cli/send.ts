import { TroupeError } from "../errors.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe send (AGENT | --user | --all | --supervisor) TEXT [--json]",
    intro: `  queued until delivered once: into the addressee's running session (Claude Code), through its
  inbox, or first in its next run's prompt;
  a done agent is resumed with it when the sender may resume it (the person, or an agent that
  started it); --all only queues; --supervisor is the agent that started the sender (else the person)`,
    flags: { user: { type: "boolean", help: null }, all: { type: "boolean", help: null }, supervisor: { type: "boolean", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const flags = (["user", "all", "supervisor"] as const).filter((f) => values[f]);
  if (flags.length > 1) throw new TroupeError("usage", "send takes one of AGENT, --user, --all, --supervisor");
  const to = flags[0] ?? positionals.shift();
  if (!to) throw new TroupeError("usage", "send needs an AGENT (or --user, --all, --supervisor) and the TEXT");
  const text = positionals.join(" ");
  if (!text.trim()) throw new TroupeError("usage", "send needs the message TEXT");
  const { client } = await connect(values.workspace);
  const sent = await client.send({ to, text });
  if (values.json) printJson(sent);
  else if (!sent.length) stdout.write("no agent to send to\n");
  else stdout.write(sent.map((m) => `${m.id} → ${m.toName}\n`).join(""));
  return 0;
}
