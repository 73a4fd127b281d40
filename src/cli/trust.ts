import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { resolveWorkspace } from "../workspace.ts";
import { trust } from "../trust.ts";
import { parse, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/**
 * Trusts the workspace config as it is now, so its `worktree.setup` may run. Shows what it trusts:
 * the person should read the file first (a pulled branch may have changed it).
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  if (positionals.length) throw new TroupeError("usage", "trust takes no arguments");
  const ws = resolveWorkspace({ workspace: values.workspace });
  const path = join(ws.stateDir, "config.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new TroupeError("not_found", `${path} does not exist: nothing to trust`);
  }
  let setup: unknown = null;
  try {
    const json = JSON.parse(text) as { worktree?: { setup?: unknown } };
    setup = json?.worktree?.setup ?? null;
  } catch {
    throw new TroupeError("bad_request", `${path} is not valid JSON`);
  }
  const record = trust(path);
  if (values.json) await printJson({ trusted: path, setup, record });
  else await stdout.write(`trusted ${path}${typeof setup === "string" ? `: each new worktree runs '${setup}'` : ""}\n`);
  return 0;
}
