import type { TroupeClient } from "../client/client.ts";

/** What every tool works with: a client carrying the caller's identity, and who that caller is. */
export interface McpContext {
  client: TroupeClient;
  /** troupe's version, as the server names itself to the host. */
  version: string;
  /** The environment a worker spawned from here inherits (the daemon drops its TROUPE_* variables). */
  env: Record<string, string>;
  /** The calling agent (from its TROUPE_AGENT_ID and TROUPE_AGENT_NAME), null for the person. */
  self: { id: string; name: string } | null;
  /** Milliseconds a tool call may wait by default (handoff, wait_agent, ask, wait_for_message). */
  defaultWaitMs: number;
}
