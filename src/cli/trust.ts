import { join, resolve } from "node:path";
import { TroupeError } from "../errors.ts";
import { resolveWorkspace } from "../workspace.ts";
import { trust } from "../trust.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/**
 * Trusts the workspace config as it is now, so its `worktree.setup` may run. Shows what it trusts:
 * the person should read the file first (a pulled branch may have changed it).
 */
export const command = defineCommand(
  {
    synopsis: "troupe trust [FILE] [--json]",
    intro: `  FILE: a repository profile (.troupe/profiles/NAME.md) whose mcpServers may then start
  recorded per user by a hash of .troupe/config.json (under $XDG_STATE_HOME/troupe/trusted);
  any change to the file needs a new 'troupe trust'`,
    flags: {},
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if (positionals.length > 1) throw new TroupeError("usage", "trust takes at most one FILE");
  if (positionals[0]) return trustProfile(resolve(positionals[0]), values.json === true);
  const ws = resolveWorkspace({ workspace: values.workspace });
  const path = join(ws.stateDir, "config.json");
  let setup: unknown = null;
  const { record } = trust(path, process.env, (text) => {
    try {
      const json = JSON.parse(text) as { worktree?: { setup?: unknown } };
      setup = json?.worktree?.setup ?? null;
    } catch {
      throw new TroupeError("bad_request", `${path} is not valid JSON`);
    }
  });
  if (values.json) await printJson({ trusted: path, setup, record });
  else await stdout.write(`trusted ${path}${typeof setup === "string" ? `: each new worktree runs '${setup}'` : ""}\n`);
  return 0;
}

/** A repository profile's current bytes, so its `mcpServers` may start (what they start is shown). */
async function trustProfile(path: string, json: boolean): Promise<number> {
  const { record, text } = trust(path);
  const commands = [...text.matchAll(/^\s*command:\s*(.+)$/gm)].map((m) => m[1]!.trim());
  if (json) await printJson({ trusted: path, record });
  else await stdout.write(`trusted ${path}${commands.length ? `: its MCP servers run ${commands.join(", ")}` : ""}\n`);
  return 0;
}
