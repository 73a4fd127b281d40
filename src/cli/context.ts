import { ensureDaemon } from "../client/connect.ts";
import type { TroupeClient } from "../client/client.ts";
import { resolveWorkspace, type Workspace } from "../workspace.ts";

/** The workspace a command acts on, and a client of its daemon (started if none runs). */
export async function connect(workspace: string | undefined): Promise<{ ws: Workspace; client: TroupeClient }> {
  const ws = resolveWorkspace({ workspace });
  return { ws, client: await ensureDaemon(ws) };
}

/** The environment an agent spawned from here inherits. */
export function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}
