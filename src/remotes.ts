import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { homedir } from "node:os";
import { TroupeError } from "./errors.ts";
import { RemotesFileSchema, type Remote } from "./protocol/remote.ts";
import { readJsonConfig } from "./json-config.ts";

/**
 * The user's remotes: `$XDG_CONFIG_HOME/troupe/remotes.json`, else `~/.config/troupe/remotes.json`;
 * yours, never a repository's (a remote runs ssh to a host you chose). Written by `troupe remote
 * add` and `rm`; no secret in it.
 */
export function remotesPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "troupe", "remotes.json");
}

/** Every remote by name; none yet is an empty list, a broken file a clear error. */
export function readRemotes(env: NodeJS.ProcessEnv = process.env): Record<string, Remote> {
  return readJsonConfig(remotesPath(env), RemotesFileSchema, "remotes")?.remotes ?? {};
}

/** The remote called `name`, or a one-line error naming those there are. */
export function findRemote(name: string, env: NodeJS.ProcessEnv = process.env): Remote {
  const all = readRemotes(env);
  const r = all[name];
  if (r) return r;
  const names = Object.keys(all);
  throw new TroupeError("remote_not_found", `no remote '${name}' (${names.length ? `there are: ${names.join(", ")}` : "add one with 'troupe remote add NAME HOST --path PATH'"})`);
}

/** Replaces the file whole (written aside, then renamed: a reader never sees half of it), 0600. */
export function writeRemotes(remotes: Record<string, Remote>, env: NodeJS.ProcessEnv = process.env): void {
  const path = remotesPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const sorted = Object.fromEntries(Object.entries(remotes).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(tmp, `${JSON.stringify({ remotes: sorted }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
