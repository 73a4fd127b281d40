import type { Endpoint, EndpointName } from "../../protocol/api/index.ts";
import { loadSchema } from "../../protocol/api/index.ts";
import { readQuery } from "../../protocol/api/query.ts";
import type { Caller, Feed, Services } from "../../services/services.ts";
import { parseBody } from "../body.ts";
import { json } from "../http.ts";
import type { Handler } from "../router.ts";
import { sseStream } from "../sse.ts";

type AnyHandler = (caller: Caller, input: Record<string, unknown>, signal: AbortSignal) => unknown;
const OK = { ok: true };
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };

/**
 * One row of the API table served: the caller against the row's rule first (before the body is
 * read), then the query and the body validated, the fields only some callers may set, the
 * service's handler, and its result as the row's reply.
 */
export function serveEndpoint(name: EndpointName, e: Endpoint, s: Services): Handler {
  // the daemon's services have loaded these modules already: this settles at once
  const bodySchema = e.body ? loadSchema(e.body) : null;
  const handler = s.handlers[name] as AnyHandler;
  const status = e.status ?? 200;
  const { reply } = e;
  return async ({ req, url, params, caller, readBody }) => {
    s.guard.endpoint(caller, name, params);
    const input: Record<string, unknown> = e.query ? readQuery(e.query, url.searchParams) : {};
    // a call is acted on once it has arrived whole, body included (declared or not): a stalled body is 408, never half a request
    const bytes = e.method === "GET" ? null : await readBody();
    if (bodySchema && bytes) Object.assign(input, parseBody(bytes, await bodySchema));
    // last: a body never stands in for a path parameter the guard has checked
    Object.assign(input, params);
    if (e.fields) s.guard.fields(caller, name, params, input);
    if (reply.kind === "stream") {
      const feed = handler(caller, input, req.signal) as Feed;
      return new Response(sseStream(feed.backlog, feed.subscribe, feed.startId), { headers: SSE_HEADERS });
    }
    const result = await handler(caller, input, req.signal);
    if (reply.kind === "ok") return json(OK, status);
    return json(reply.key === null ? result : { [reply.key]: result }, status);
  };
}
