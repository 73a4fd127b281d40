import { autostartingClient } from "../client/connect.ts";
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

/** The environment an agent spawned from here inherits. */
export function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}
