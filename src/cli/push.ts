import { TroupeError } from "../errors.ts";
import type { Push } from "../protocol/api-publish.ts";
import { defineCommand, printJson } from "./command.ts";
import { clientEnv, connect } from "./context.ts";
import { stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe push AGENT [--to REMOTE] [--json]",
    intro: "  pushes the agent's branch (troupe/<name>) to the repository's git remote, with your git: its credentials, ssh and hooks",
    flags: { to: { type: "string", arg: "REMOTE", help: "the git remote to push to (default: origin)" } },
    json: `{"remote", "branch", "commit", "url"}: what was pushed where`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "push takes one AGENT (id or name)");
  const { client } = await connect(values.workspace);
  await printPush(await client.push(ref, { remote: values.to, env: clientEnv() }), values.json === true);
  return 0;
}

/** A push as `troupe push` and `troupe initiative push` print it. */
export async function printPush(push: Push, json: boolean): Promise<void> {
  if (json) await printJson(push);
  else await stdout.write(`pushed ${push.branch} to ${push.remote} (${push.url}) at ${push.commit.slice(0, 10)}\n`);
}
