import type { TroupeClient } from "../client/client.ts";
import type { Message } from "../protocol/message.ts";
import type { SendRequest } from "../protocol/api-messages.ts";

/** The messages part of the client, as the messages service defines it (present once that service is built in). */
export interface MessagesClient {
  send(req: SendRequest): Promise<Message[]>;
  inbox(q: { after?: number; waitMs?: number }, signal?: AbortSignal): Promise<Message[]>;
}

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

export function messagesOf(client: TroupeClient): MessagesClient | null {
  const c = client as unknown as Partial<MessagesClient>;
  return typeof c.send === "function" && typeof c.inbox === "function" ? (c as MessagesClient) : null;
}
