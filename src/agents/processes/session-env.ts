import { delimiter } from "node:path";
import { SESSION_KEY_VAR } from "./find.ts";

/**
 * The person's own settings among troupe's variables: how to reach their remotes. Kept, so that a
 * daemon an agent's `troupe signal` starts again reaches the pool's hosts as the person's would.
 */
const PERSON_SETTINGS = new Set(["TROUPE_SSH_COMMAND", "TROUPE_REMOTE_TIMEOUT", "TROUPE_REMOTE_REQUEST_TIMEOUT"]);

/**
 * The client's environment without troupe's own variables. troupe sets them for every session
 * (identity, a fresh token, socket, signal file, prompt, markers), so a client's are its own
 * context's (an agent spawning another carries its own token) and must neither reach the new
 * agent nor be kept anywhere. The person's settings (PERSON_SETTINGS) stay.
 */
export function withoutTroupeVars(clientEnv: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(clientEnv).filter(([k]) => !k.startsWith("TROUPE_") || PERSON_SETTINGS.has(k)));
}

/**
 * What makes a process one agent's session: who it is, its token, its signal file, its input and
 * its marker. A daemon that an agent's client started (`troupe signal`, the ACP runner) inherits
 * them and drops them at its start, so nothing it runs (git, the person's notify command) speaks
 * as that agent or is taken for one of its processes.
 */
export const SESSION_IDENTITY_VARS = ["TROUPE_AGENT_ID", "TROUPE_AGENT_NAME", "TROUPE_AGENT_TOKEN", "TROUPE_SIGNAL_FILE", "TROUPE_SESSION_INPUT", SESSION_KEY_VAR];

export interface AgentIdentity {
  id: string;
  name: string;
  token: string;
  signalFile: string;
  workspace: string;
  socket: string;
  /** This session's marker (random, not a secret): stopping finds its processes by it. */
  sessionKey: string;
}

/**
 * An agent's environment: the spawning client's (never the daemon's, which may be days old),
 * plus who it is (and `extra`: its ports), and this troupe first on PATH so that `troupe` in its shell is the right one.
 */
export function agentEnv(clientEnv: Record<string, string>, who: AgentIdentity, binDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = withoutTroupeVars(clientEnv);
  // an agent spawning a worker passes on its own PORT: the worker's is its own worktree's or none
  if (clientEnv.TROUPE_PORT !== undefined && env.PORT === clientEnv.TROUPE_PORT) delete env.PORT;
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
    [SESSION_KEY_VAR]: who.sessionKey,
  };
}
