import type { Agent } from "../protocol/entities.ts";
import { asciiFromEnv } from "../output/tree.ts";
import { errorMessage } from "../errors.ts";
import { closeSources, sourceName, type Source } from "../client/sources.ts";
import { connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { agentRows } from "./format.ts";
import { SOURCE_FLAGS, manySources, sourceFlagsOf, sourcesOf } from "./sources.ts";
import { stderr, stdout } from "./streams.ts";

export const command = defineCommand(
  {
    synopsis: "troupe ls [--workspace DIR]... [--remote NAME]... [-A] [--json]",
    flags: SOURCE_FLAGS,
    json: "the agents; with --remote, -A or several --workspace each also has remote (its name, or null) and workspace",
    notes: "  several sources: one group each; a source not reached is one line on stderr, and the exit is 1",
    workspace: false,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const flags = sourceFlagsOf({ workspace: values.workspace, remote: values.remote, "all-workspaces": values["all-workspaces"] });
  if (!manySources(flags)) return single(flags.workspaces?.[0], values.json === true);
  const sources = await sourcesOf(flags);
  try {
    const results = await Promise.all(sources.map((s) => s.client.listAgents().then((agents) => ({ agents }), (err: unknown) => ({ error: errorMessage(err) }))));
    let unreached = 0;
    const groups: { source: Source; agents: Agent[] }[] = [];
    results.forEach((r, i) => {
      const source = sources[i]!;
      if ("error" in r) {
        unreached++;
        stderr.write(`troupe: ${sourceName(source)}: ${r.error}\n`);
      } else groups.push({ source, agents: r.agents });
    });
    if (values.json) {
      await printJson(groups.flatMap(({ source, agents }) => agents.map((a) => ({ ...a, remote: source.kind === "remote" ? source.name : null, workspace: source.workspace }))));
    } else {
      const ascii = asciiFromEnv();
      // -A with no live daemon here and no remote: say so rather than print nothing
      if (sources.length === 0) await stdout.write("no workspace with a live daemon here (custom TROUPE_SOCKET daemons are not found), and no remotes\n");
      const text = groups.map(({ source, agents }) => `${header(source)}\n${agents.length ? agentRows(agents, ascii) : "  no agents\n"}`).join("\n");
      await stdout.write(text);
    }
    return unreached ? 1 : 0;
  } finally {
    closeSources(sources);
  }
}

/** A group's header: the folder for a workspace here, `NAME (user@host:/path)` for a remote. */
function header(s: Source): string {
  return `== ${sourceName(s)}`;
}

/** One workspace, as troupe ls has always been. */
async function single(workspace: string | undefined, json: boolean): Promise<number> {
  const { client } = await connect(workspace);
  const agents = await client.listAgents();
  if (json) printJson(agents);
  else if (agents.length === 0) stdout.write("no agents; start one with 'troupe spawn'\n");
  else stdout.write(agentRows(agents, asciiFromEnv()));
  return 0;
}
