import { readFileSync } from "node:fs";
import { TroupeError, errorMessage } from "../errors.ts";
import type { PullRequest } from "../protocol/api-publish.ts";
import { defineCommand, printJson, type Flags } from "./command.ts";
import { clientEnv, connect } from "./context.ts";
import { stdout } from "./streams.ts";

/** The flags of a pull request, shared with `troupe initiative pr`. */
export const PR_FLAGS = {
  to: { type: "string", arg: "REMOTE", help: "the git remote to push to (default: origin)" },
  base: { type: "string", arg: "BRANCH", help: "the branch it merges into (default: the one it started from, else the remote's default)" },
  draft: { type: "boolean", help: "open it as a draft" },
  title: { type: "string", arg: "T", help: "its title (default: the task's, else the first line of the prompt)" },
  "body-file": { type: "string", arg: "F", help: "its body from a file, - for stdin (default: the task, the result and the commits)" },
} as const satisfies Flags;

export const command = defineCommand(
  {
    synopsis: "troupe pr AGENT [--to REMOTE] [--base BRANCH] [--draft] [--title T] [--body-file F] [--json]",
    intro:
      "  pushes the agent's branch, then opens its pull request on GitHub: through gh when it is logged in,\n  else the REST API with GH_TOKEN or github.token (and github.apiUrl for Enterprise) in ~/.config/troupe/config.json",
    flags: PR_FLAGS,
    json: `{"url", "number", "created", "via", "base", "push"}: created is false when one was open already`,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "pr takes one AGENT (id or name)");
  const ask = pullAsk(values);
  const { client } = await connect(values.workspace);
  const pr = await client.pullRequest(ref, ask);
  await printPull(pr, values.json === true, ref);
  return 0;
}

/** The request a pull request's flags make. */
export function pullAsk(values: { to?: string; base?: string; draft?: boolean; title?: string; "body-file"?: string }) {
  return { remote: values.to, base: values.base, draft: values.draft, title: values.title, body: bodyFrom(values["body-file"]), env: clientEnv() };
}

function bodyFrom(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (err) {
    throw new TroupeError("usage", `cannot read --body-file ${file}: ${errorMessage(err)}`);
  }
}

export async function printPull(pr: PullRequest, json: boolean, what: string): Promise<void> {
  if (json) await printJson(pr);
  else if (pr.created) await stdout.write(`pushed ${pr.push.branch} to ${pr.push.remote}; opened pull request #${pr.number} into ${pr.base}: ${pr.url}\n`);
  else await stdout.write(`pushed ${pr.push.branch} to ${pr.push.remote}; ${what}'s pull request #${pr.number} is open already: ${pr.url}\n`);
}
