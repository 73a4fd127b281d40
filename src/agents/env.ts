import { delimiter } from "node:path";

/** Variables of the client's environment that belong to the client's own troupe context, not the agent's. */
const STRIPPED = ["TROUPE_AGENT_ID", "TROUPE_AGENT_TOKEN", "TROUPE_SIGNAL_FILE", "TROUPE_AGENT_NAME"];

export interface AgentIdentity {
  id: string;
  name: string;
  token: string;
  signalFile: string;
  workspace: string;
  socket: string;
}

/**
 * An agent's environment: the spawning client's (never the daemon's, which may be days old),
 * plus who it is, and this troupe first on PATH so that `troupe` in its shell is the right one.
 */
export function agentEnv(clientEnv: Record<string, string>, who: AgentIdentity, binDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...clientEnv };
  for (const k of STRIPPED) delete env[k];
  const path = env.PATH ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  return {
    ...env,
    ...extra,
    PATH: `${binDir}${delimiter}${path}`,
    TROUPE_SOCKET: who.socket,
    TROUPE_WORKSPACE: who.workspace,
    TROUPE_AGENT_ID: who.id,
    TROUPE_AGENT_NAME: who.name,
    TROUPE_AGENT_TOKEN: who.token,
    TROUPE_SIGNAL_FILE: who.signalFile,
  };
}
