import { TroupeError } from "../errors.ts";
import { clientEnv } from "./context.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe resume AGENT [--answer QID=TEXT ...] [--message TEXT] [--json]",
    flags: { answer: { type: "string", multiple: true, help: null }, message: { type: "string", help: null }, ...REMOTE_FLAG },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "resume takes one AGENT (id or name)");
  const answers = (values.answer ?? []).map((a) => {
    const eq = a.indexOf("=");
    if (eq <= 0) throw new TroupeError("usage", `--answer takes QID=TEXT, not '${a}'`);
    return { id: a.slice(0, eq), answer: a.slice(eq + 1) };
  });
  const client = await commandClient(values.workspace, values.remote);
  // the person's shell refreshes the agent's environment; an agent's may not (the daemon refuses it)
  const env = process.env.TROUPE_AGENT_TOKEN ? undefined : clientEnv();
  const agent = await client.resume(ref, { answers, message: values.message, env });
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} resumed (session ${agent.session})\n`);
  return 0;
}
