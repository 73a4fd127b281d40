import { ROWS, loadSchema, type Endpoint, type EndpointName, type Endpoints, type ParamNames, type Payload, type Result, type SchemaRef, type StreamReply } from "../protocol/api/index.ts";
import { writeQuery } from "../protocol/api/query.ts";
import type { ReplyCheck } from "../protocol/api/replies.ts";
import { OkReply } from "../protocol/api/reply-checks.ts";
import { request } from "./http.ts";
import type { EventFilter, EventMessage } from "./sse.ts";
import { UnixSocketTransport, type Transport } from "./transport.ts";

let jitless = false;

/**
 * For a process that parses a handful of replies and exits (a CLI command): zod's compiled fast
 * path, generated with `new Function` on the first parse of each object schema, costs it more than
 * it saves. Set before any schema loads; nothing is loaded here.
 */
export function preferJitlessParsing(): void {
  jitless = true;
}

/**
 * A reply's schema, loaded on first use, zod with it (~3 ms, and each schema costs to build): the
 * agents' hot commands read replies the table checks without zod (reply-checks.ts, generated from the schemas) and never load it.
 */
async function replySchema<T>(ref: SchemaRef): Promise<ReplyCheck<T>> {
  const schema = await loadSchema(ref);
  if (jitless) (await import("zod")).z.config({ jitless: true });
  return schema as unknown as ReplyCheck<T>;
}

/** After the path parameter: the body (required), or the query (optional), then an abort signal. */
type Rest<E extends Endpoint> = E extends { readonly body: SchemaRef }
  ? [payload: Payload<E>, signal?: AbortSignal]
  : E extends { readonly query: object }
    ? [payload?: Payload<E>, signal?: AbortSignal]
    : [signal?: AbortSignal];

/** An endpoint as a method: its path parameter first (when it has one), then its query or body, then an abort signal. */
type EndpointMethod<E extends Endpoint> = [ParamNames<E["path"]>] extends [never]
  ? (...args: Rest<E>) => Promise<Result<E>>
  : (param: string, ...args: Rest<E>) => Promise<Result<E>>;

/** A method for every endpoint of the table but the event stream (`events`, `openEvents`). */
export type EndpointMethods = { [K in EndpointName as Endpoints[K]["reply"] extends StreamReply ? never : K]: EndpointMethod<Endpoints[K]> };

/** How to reach the daemon: a workspace's socket (the local source), or any transport. */
export type ClientOptions = {
  token?: string;
  /**
   * Replies are taken as they come, unchecked: the web page (src/web/page/), whose replies are a
   * daemon's passed on by the person's own web process, and which must not load zod for them.
   */
  unchecked?: true;
} & ({ socket: string } | { transport: Transport });

/** A reply taken as it is (ClientOptions.unchecked). */
const AS_IS: ReplyCheck<unknown> = { safeParse: (value) => ({ success: true, data: value }) };

/**
 * The typed API of one source's daemon; the only way cli/, ui/ and mcp/ reach it. Its methods
 * are the API table's endpoints (src/protocol/api/), by name: `client.stop(ref)` is
 * `POST /v1/agents/:ref/stop`, resolving to the agent the reply holds.
 */
export class TroupeClient {
  readonly transport: Transport;
  /** The agent token this client acts with; none: the person. */
  readonly token: string | undefined;

  /** Replies are not checked (ClientOptions.unchecked). */
  readonly unchecked: boolean;

  constructor(opts: ClientOptions) {
    this.transport = "transport" in opts ? opts.transport : new UnixSocketTransport(opts.socket);
    this.token = opts.token;
    this.unchecked = opts.unchecked === true;
  }

  /** Calls endpoint `e` with a method's arguments (see EndpointMethod). */
  async call(e: Endpoint, args: readonly unknown[]): Promise<unknown> {
    let i = 0;
    let path: string = e.path;
    if (e.params) path = path.replace(/:[A-Za-z]+/, encodeURIComponent(String(args[i++])));
    const payload = e.query || e.body ? ((args[i++] ?? {}) as Record<string, unknown>) : {};
    const signal = args[i] as AbortSignal | undefined;
    if (e.query) path += writeQuery(e.query, payload);
    const { reply } = e;
    if (reply.kind === "stream") throw new Error(`${e.path} is a stream: read it with events()`);
    const check = this.unchecked ? AS_IS : reply.kind === "ok" ? OkReply : (reply.check ?? (await replySchema(reply.schema)));
    const res = await request(this.transport, this.token, e.method, path, check, e.body ? payload : undefined, signal);
    if (reply.kind === "ok") return undefined;
    return reply.key === null ? res : (res as Record<string, unknown>)[reply.key];
  }

  async *events(since: number | null, signal?: AbortSignal, filter?: EventFilter): AsyncGenerator<EventMessage> {
    const { subscribe } = await import("./sse.ts");
    yield* subscribe(this.transport, this.token, since, signal, filter, this.unchecked);
  }
  /** Like events(), but resolves only once the daemon has registered the subscription. */
  async openEvents(since: number | null, signal?: AbortSignal, filter?: EventFilter): Promise<AsyncGenerator<EventMessage>> {
    const { openSubscription } = await import("./sse.ts");
    return openSubscription(this.transport, this.token, since, signal, filter, this.unchecked);
  }
}

/** Gives a class one method per endpoint (typed by EndpointMethods), each going through its `call`. */
export function installEndpointMethods(proto: { call(e: Endpoint, args: readonly unknown[]): Promise<unknown> }): void {
  for (const [name, e] of ROWS) {
    if (e.reply.kind === "stream") continue;
    Object.defineProperty(proto, name, {
      value(this: typeof proto, ...args: unknown[]) {
        return this.call(e, args);
      },
      writable: true,
      configurable: true,
    });
  }
}

export interface TroupeClient extends EndpointMethods {}
installEndpointMethods(TroupeClient.prototype);
