import { ROWS, type Endpoint, type EndpointName } from "../protocol/api/index.ts";
import { MAX_BODY_BYTES } from "../protocol/api-base.ts";
import { deliver } from "../client/http.ts";
import type { Transport } from "../client/transport.ts";
import { errorMessage, TroupeError } from "../errors.ts";
import { BUILD_VERSION, VERSION_HEADER } from "../self.ts";
import { SECURITY_HEADERS } from "./pages.ts";

/**
 * The endpoints of the API table the page calls (its mirror's and its actions'), by name: only
 * these are passed on. Not the rest: an agent's environment (attach), the daemon's stop, accounts,
 * an agent's own calls (listen, inbox: a GET that takes the person's question or messages).
 */
const PAGE_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  ...(["health", "events", "listAgents", "agent", "output", "conversations", "conversation", "messages", "permissions", "permission", "initiatives", "initiative", "initiativeWork", "workItem"] as const),
  ...(["spawn", "stop", "resume", "answer", "send", "markRead", "decidePermission", "approve", "reject"] as const),
  ...(["agentDiff", "review", "addReviewComment", "addReviewComments", "editReviewComment", "deleteReviewComment", "sendReview"] as const),
]);

/** Each endpoint the page calls, as the pattern its paths match. */
const ROUTES = ROWS.filter(([name]) => PAGE_ENDPOINTS.has(name)).map(([, e]) => ({ e, re: new RegExp(`^${e.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`) }));

/** The endpoint of the table a request is for, or null: the page reaches nothing else of a daemon. */
export function endpointFor(method: string, path: string): Endpoint | null {
  if (path.split("/").some((seg) => seg === "." || seg === "..")) return null;
  return ROUTES.find((r) => r.e.method === method && r.re.test(path))?.e ?? null;
}

/** A JSON error reply, shaped as the daemon's (`{error: {code, message}}`), so the page reads both alike. */
export function jsonError(status: number, code: string, message: string, extra: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { ...SECURITY_HEADERS, ...extra } });
}

/** A request's body up to `max` bytes, read as it streams (a chunked body says no length); null past it, unread further. */
export async function readCapped(req: Request, max: number): Promise<string | null> {
  if (Number(req.headers.get("content-length") ?? "0") > max) return null;
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Passes one request of the page on to its source's daemon, as the person: a request of this
 * process's own (its headers, its build), never the browser's (no cookie, no origin goes on).
 * What starts an agent gets this process's environment, as `troupe spawn` from the person's
 * shell does (through a link the host's replaces it). The daemon's reply comes back as it is,
 * streamed (the event stream).
 */
export async function forward(transport: Transport, e: Endpoint, path: string, req: Request, env: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { accept: e.reply.kind === "stream" ? "text/event-stream" : "application/json", [VERSION_HEADER]: BUILD_VERSION };
  let body: string | undefined;
  if (e.body) {
    const read = await readCapped(req, MAX_BODY_BYTES);
    if (read === null) return jsonError(413, "payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
    body = read;
    if (e.callerEnv) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(read);
      } catch {
        return jsonError(400, "invalid_request", "the request body is not JSON");
      }
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) body = JSON.stringify({ ...parsed, env });
    }
    headers["content-type"] = "application/json";
  }
  let res: Response;
  try {
    res = await deliver(transport, path, { method: e.method, headers, body, signal: req.signal });
  } catch (err) {
    if (req.signal.aborted) return new Response(null, { status: 499 });
    const message = err instanceof TroupeError ? err.message : `no daemon answers on ${transport.address}: ${errorMessage(err)}`;
    return jsonError(502, "daemon_unavailable", message);
  }
  const type = res.headers.get("content-type");
  return new Response(res.body, { status: res.status, headers: { ...SECURITY_HEADERS, ...(type && { "content-type": type }) } });
}
