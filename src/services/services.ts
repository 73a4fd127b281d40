import type { Health } from "../protocol/api-base.ts";
import type { Agent, Conversation } from "../protocol/entities.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { Caller } from "../agents/caller.ts";
import type { OutputQuery, ResumeOptions, SpawnOptions } from "../agents/service.ts";
import type { AskOptions } from "../conversations/service.ts";
import type { Feed, FeedQuery } from "../events/feed.ts";

export type { Caller };

/**
 * The daemon's one service API. Every adapter (the HTTP routes in src/daemon/routes/, an MCP
 * server next) resolves its Caller with `identify` and calls these methods: the rules live
 * behind them, so two adapters cannot drift apart. Inputs are already validated (zod output
 * types); failures are TroupeErrors with a code, mapped by each adapter.
 */
export interface Services {
  /** The caller an agent token proves; null (no token) is the person. An unknown token is `unauthorized`. */
  identify(token: string | null): Caller;
  daemon: DaemonApi;
  agents: AgentsApi;
  conversations: ConversationsApi;
  events: EventsApi;
}

export interface DaemonApi {
  health(): Health;
  /** Stops the daemon shortly after returning (agents keep running). */
  stop(): void;
}

export interface AgentsApi {
  list(): Agent[];
  /** By id or name; `agent_not_found` otherwise. */
  get(ref: string): Agent;
  spawn(req: SpawnOptions): Promise<Agent>;
  stop(ref: string): Agent;
  resume(ref: string, req: ResumeOptions): Promise<Agent>;
  remove(ref: string): Promise<void>;
  output(ref: string, q: OutputQuery): OutputChunk[];
  /** An agent reports it wrote its signal file; checked for the caller's own file, and parsed. */
  signal(caller: Caller, signalFile: string): void;
}

export interface ConversationsApi {
  ask(caller: Caller, req: AskOptions): Conversation;
  list(q: { pending?: boolean }): Conversation[];
  /** The conversation once answered or expired, or as it is after `waitMs` (at most MAX_WAIT_MS). */
  wait(id: string, waitMs: number, signal: AbortSignal): Promise<Conversation>;
  answer(caller: Caller, id: string, answer: string): Conversation;
  /** Claims the caller's oldest pending conversation, waiting up to `waitMs`; null when none came. */
  listen(caller: Caller, waitMs: number, signal: AbortSignal): Promise<Conversation | null>;
}

export interface EventsApi {
  open(q: FeedQuery): Feed;
}
