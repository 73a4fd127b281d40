import { readdirSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import type { Remote } from "../protocol/remote.ts";
import { runtimeDir, resolveWorkspace, type Workspace } from "../workspace.ts";
import { TroupeClient } from "./client.ts";
import { autostartingClient } from "./connect.ts";
import type { LinkTransport } from "./link/link-transport.ts";
import { remoteAddress, remoteTransport } from "./remote.ts";
import { UnixSocketTransport } from "./transport.ts";

/**
 * One daemon a client follows: a workspace of this machine (reached by its socket) or a
 * workspace on a remote box (reached over ssh). The dashboard and `ls` follow several.
 */
export type Source = LocalSource | RemoteSource;

interface SourceBase {
  /** Unique among the sources: the workspace's root here, `NAME` for a remote (`remote:NAME`). */
  key: string;
  /** The workspace's folder (on its machine). */
  workspace: string;
  client: TroupeClient;
}
export interface LocalSource extends SourceBase {
  kind: "local";
  ws: Workspace;
}
interface RemoteSource extends SourceBase {
  kind: "remote";
  name: string;
  remote: Remote;
  transport: LinkTransport;
}

/** The source flags of the dashboard and `ls`. */
export interface SourceFlags {
  /** `--workspace` (repeatable): exactly those workspaces of this machine. */
  workspaces?: readonly string[];
  /** `--remote NAME` (repeatable): those remotes, beside this workspace (or the `--workspace` ones). */
  remotes?: readonly string[];
  /** `-A`: every workspace with a live daemon found in the runtime folder, and every remote. */
  all?: boolean;
}

const token = () => process.env.TROUPE_AGENT_TOKEN || undefined;

export function localSource(ws: Workspace, client: TroupeClient = autostartingClient(ws)): LocalSource {
  return { kind: "local", key: ws.root, workspace: ws.root, ws, client };
}

function remoteSource(name: string, remote: Remote, env: NodeJS.ProcessEnv = process.env): RemoteSource {
  const transport = remoteTransport(name, remote, env);
  return { kind: "remote", key: `remote:${name}`, name, remote, workspace: remote.path, transport, client: new TroupeClient({ transport }) };
}

/** How long a socket in the runtime folder gets to say whose it is. */
const PROBE_MS = 1500;

/**
 * Workspaces of this user with a live daemon: every socket in the runtime folder that answers,
 * by the workspace it names. A daemon on a custom TROUPE_SOCKET elsewhere is not there to find.
 */
export async function liveWorkspaces(): Promise<Workspace[]> {
  const dir = runtimeDir();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".sock"));
  } catch {
    return [];
  }
  const found = await Promise.all(
    names.map(async (n): Promise<Workspace | null> => {
      const socket = join(dir, n);
      const client = new TroupeClient({ transport: new UnixSocketTransport(socket), token: token() });
      const timeout = AbortSignal.timeout(PROBE_MS);
      try {
        const h = await client.health(timeout);
        return { root: h.workspace, stateDir: join(h.workspace, ".troupe"), socket, socketExplicit: false };
      } catch {
        return null; // a socket left by a dead daemon, or one too busy to say
      }
    }),
  );
  const byRoot = new Map<string, Workspace>();
  for (const ws of found) if (ws && !byRoot.has(ws.root)) byRoot.set(ws.root, ws);
  return [...byRoot.values()].sort((a, b) => a.root.localeCompare(b.root));
}

/**
 * The sources the flags name, in the order the list groups them: this workspace (or the
 * `--workspace` ones, in their order), then the remotes. `-A` adds every live workspace here
 * (this one first) and every remote. A remote name not in the config is an error here, before
 * anything connects.
 */
export async function resolveSources(flags: SourceFlags, remotes: Record<string, Remote>, env: NodeJS.ProcessEnv = process.env): Promise<Source[]> {
  const out: Source[] = [];
  const keys = new Set<string>();
  const add = (s: Source) => {
    if (keys.has(s.key)) return;
    keys.add(s.key);
    out.push(s);
  };
  const named = flags.workspaces ?? [];
  // one workspace keeps what a single-workspace troupe does (TROUPE_SOCKET included); several cannot share it
  if (named.length > 1) for (const w of named) add(localSource(resolveWorkspace({ workspace: w, ignoreEnvSocket: true })));
  else if (!flags.all || named.length === 1) add(localSource(resolveWorkspace({ workspace: named[0] })));
  if (flags.all) {
    const here = out[0]?.key ?? resolveWorkspace({ ignoreEnvSocket: true }).root;
    const live = await liveWorkspaces();
    live.sort((a, b) => Number(b.root === here) - Number(a.root === here));
    for (const ws of live) add(localSource(ws));
  }
  const wanted = flags.all ? Object.keys(remotes).sort() : (flags.remotes ?? []);
  for (const name of flags.all ? [...new Set([...(flags.remotes ?? []), ...wanted])] : wanted) {
    const r = remotes[name];
    if (!r) {
      const names = Object.keys(remotes);
      throw new TroupeError("remote_not_found", `no remote '${name}' (${names.length ? `there are: ${names.join(", ")}` : "add one with 'troupe remote add NAME HOST --path PATH'"})`);
    }
    add(remoteSource(name, r, env));
  }
  return out;
}

/** `box1 (root@host:/srv/api)` or the local folder: how a message names a source. */
export function sourceName(s: Source): string {
  return s.kind === "remote" ? `${s.name} (${remoteAddress(s.remote)})` : s.workspace;
}

/** Closes what a source holds open (a remote's ssh link). */
export function closeSources(sources: readonly Source[]): void {
  for (const s of sources) if (s.kind === "remote") s.transport.close();
}
