import type { Caller } from "../agents/caller.ts";
import type { Feed } from "../events/event-feed.ts";
import type { Endpoint, Endpoints, Input, Result, StreamReply } from "../protocol/api/index.ts";
import type { Guard } from "./guard.ts";

export type { Caller, Feed };

/**
 * The service behind one endpoint of the API table (src/protocol/api/): it gets the caller, the
 * endpoint's input (path parameters, query and body, already validated) and the request's abort
 * signal (long polls end with it), and returns the endpoint's result (`Result`: what the reply
 * holds). A stream endpoint returns the feed the router streams. Failures are TroupeErrors with
 * a code, mapped by the router.
 */
type Handler<E extends Endpoint> = E["reply"] extends StreamReply
  ? (caller: Caller, input: Input<E>) => Feed
  : (caller: Caller, input: Input<E>, signal: AbortSignal) => Result<E> | Promise<Result<E>>;

export type HandlersOf<T extends Readonly<Record<string, Endpoint>>> = { [K in keyof T]: Handler<T[K]> };

/** One handler per endpoint of the table, by the endpoint's name: the type checker holds them to each other. */
export type Handlers = HandlersOf<Endpoints>;

/**
 * The daemon's one service API. The HTTP router (src/daemon/routes/) resolves each request's
 * Caller with `identify`, asks the guard (the table's rules) before it reads the body, then calls
 * the endpoint's handler. The MCP server is a client of those routes, so it gets the same rules.
 */
export interface Services {
  /** The caller an agent token proves; null (no token) is the person. An unknown token is `unauthorized`. */
  identify(token: string | null): Caller;
  guard: Guard;
  handlers: Handlers;
}
