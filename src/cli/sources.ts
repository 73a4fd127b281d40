import { TroupeError } from "../errors.ts";
import type { TroupeClient } from "../client/client.ts";
import type { Source, SourceFlags } from "../client/sources.ts";
import { connect } from "./context.ts";
import { program } from "../runtime/program.ts";

/** The flags that choose what the dashboard and `ls` follow (declared by each, read by each). */
export const SOURCE_FLAGS = {
  workspace: { type: "string", multiple: true, arg: "DIR", help: "a workspace of this machine (default: the git toplevel of the current folder, or\n$TROUPE_WORKSPACE); repeatable: exactly those workspaces, in one list" },
  remote: { type: "string", multiple: true, arg: "NAME", help: "also that remote's workspace, over ssh (repeatable; see troupe remote add)" },
  "all-workspaces": {
    type: "boolean",
    short: "A",
    help: "every workspace of yours with a live daemon on this machine (found in the runtime\nfolder: a daemon on a custom TROUPE_SOCKET is not found) and every remote",
  },
} as const;

/** `--remote NAME` of a one-agent command. */
export const REMOTE_FLAG = {
  remote: { type: "string", arg: "NAME", help: "act on that remote's workspace (troupe remote add) instead of this one" },
} as const;

/** The source flags as parsed (a repeatable `--workspace` comes as a list). */
export function sourceFlagsOf(values: { workspace?: unknown; remote?: string[]; "all-workspaces"?: boolean }): SourceFlags {
  const ws = values.workspace;
  return {
    workspaces: ws === undefined ? undefined : Array.isArray(ws) ? ws.map(String) : [String(ws)],
    remotes: values.remote,
    all: values["all-workspaces"] === true,
  };
}

/** Whether the flags ask for more than one workspace: the single-workspace behaviour (and output) holds otherwise. */
export function manySources(flags: SourceFlags): boolean {
  return Boolean(flags.all) || (flags.remotes?.length ?? 0) > 0 || (flags.workspaces?.length ?? 0) > 1;
}

/** The sources the flags name (src/client/sources.ts). */
export async function sourcesOf(flags: SourceFlags): Promise<Source[]> {
  const needsConfig = flags.all || (flags.remotes?.length ?? 0) > 0;
  const { resolveSources } = await import("../client/sources.ts");
  // the remotes file (and its schema) loads only when a remote may be followed: not at every start
  return resolveSources(flags, needsConfig ? (await import("../remotes.ts")).readRemotes() : {});
}

/**
 * The client a one-agent command acts through: this workspace's daemon, or with `--remote NAME`
 * that remote's, as the person there. An agent acts in its own workspace only: through a remote
 * it would be the person of another machine.
 */
export async function commandClient(workspace: string | undefined, remote: string | undefined): Promise<TroupeClient> {
  if (remote === undefined) return (await connect(workspace)).client;
  if (program.env("TROUPE_AGENT_TOKEN")) throw new TroupeError("forbidden", "an agent acts in its own workspace: --remote is the person's");
  if (workspace !== undefined) throw new TroupeError("usage", "give --workspace or --remote, not both (a remote's workspace is its --path)");
  const [{ remoteClient }, { findRemote }] = await Promise.all([import("../client/remote.ts"), import("../remotes.ts")]);
  return remoteClient(remote, findRemote(remote));
}
