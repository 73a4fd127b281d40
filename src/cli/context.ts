import { autostartingClient, clientFor } from "../client/connect.ts";
import { TroupeError } from "../errors.ts";
import { preferJitlessParsing, type TroupeClient } from "../client/client.ts";
import { resolveWorkspace, type Workspace } from "../workspace.ts";

// a command parses a handful of replies and exits
preferJitlessParsing();

/**
 * The workspace a command acts on, and a client of its daemon. The first request that finds
 * no daemon starts one and is sent again: no health check on the way, a cold call is one round trip.
 */
export async function connect(workspace: string | undefined): Promise<{ ws: Workspace; client: TroupeClient }> {
  const ws = resolveWorkspace({ workspace });
  return { ws, client: autostartingClient(ws) };
}

/**
 * A client for a command about the user rather than a workspace (`troupe account`): this
 * workspace's daemon; in a folder that is no workspace, a live daemon of another one (every daemon
 * of the user serves the same accounts), and none is started, nothing made here, when none runs.
 */
export async function connectAsUser(workspace: string | undefined): Promise<TroupeClient> {
  const ws = resolveWorkspace({ workspace });
  if (!ws.unclaimed) return autostartingClient(ws);
  const { liveWorkspaces } = await import("../client/sources.ts");
  const live = await liveWorkspaces();
  if (!live[0]) throw new TroupeError("not_a_workspace", `${ws.root} is in no git repository and no troupe daemon runs to ask: run this inside a workspace (its daemon serves the user's accounts)`);
  return clientFor(live[0]);
}

/** The environment an agent spawned from here inherits. */
export function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}
