import type { TcpConnection } from "../runtime/contract.ts";
import type { Transport } from "../client/transport.ts";
import { assetResponse, PAGE_ENTRY, PAGE_PRELOAD } from "./assets.ts";
import { endpointFor, forward, jsonError, readCapped } from "./forward.ts";
import { LoginLimit } from "./login-limit.ts";
import type { LoginStore, Session } from "./logins.ts";
import { LOGIN_MS } from "./logins.ts";
import { sha256Hex } from "../runtime/hash.ts";
import { endStreams, keptOpen } from "./streams.ts";
import { appPage, loginPage, MANIFEST, SECURITY_HEADERS } from "./pages.ts";
import { KEY_HEADER } from "./page/page-transport.ts";

/** The login cookie: HttpOnly, SameSite=Strict, Secure over https; a month, or until revoked. */
const COOKIE = "troupe_login";
/** A login form's body at most: one token. */
const MAX_FORM = 4096;

/** A source the page follows, as the web process reaches it (the dashboard's sources: src/client/sources.ts). */
export interface WebSource {
  label: string;
  title: string;
  remote: boolean;
  transport: Transport;
}

export interface WebOptions {
  sources: readonly WebSource[];
  logins: LoginStore;
  /** The origin the page is reached at (`--public-url`, else where it listens): logins and changes must come from it. */
  origin: string;
  /** Further origins a browser here may use for the same listener (`localhost` for `127.0.0.1`). */
  alsoOrigins: readonly string[];
  /** What agents started from the page get: this process's environment, as from the person's shell. */
  env: Record<string, string>;
}

/** Every value the request's cookies give the login cookie (a page on another port may have planted one more). */
function cookiesOf(req: Request): string[] {
  const out: string[] = [];
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === COOKIE && v.length) out.push(v.join("="));
  }
  return out;
}

/**
 * The web process's answer to every request (docs/web.md, "Access"). Nothing is served without a
 * login but the login page (and the manifest, which holds nothing); a request with an agent's
 * token (any Authorization header) is refused on every route; every API call needs the login's
 * page key besides its cookie (the cookie reaches every port of the host), and every change the
 * page's own origin; the daemons' API is reached only through the endpoints the page uses
 * (forward.ts). A login's event streams end with it.
 */
export function webHandler(o: WebOptions): (req: Request, conn: TcpConnection) => Promise<Response> {
  const limit = new LoginLimit();
  const origins = new Set([o.origin, ...o.alsoOrigins]);
  const hosts = new Set([...origins].map((u) => new URL(u).host));
  const secure = o.origin.startsWith("https:");
  const sameOrigin = (req: Request) => origins.has(req.headers.get("origin") ?? "");
  const bySource = new Map(o.sources.map((s) => [s.label, s]));
  const listed = o.sources.map((s) => ({ label: s.label, title: s.title, remote: s.remote }));
  o.logins.ended = endStreams;

  const login = async (req: Request, conn: TcpConnection): Promise<Response> => {
    if (!sameOrigin(req)) return loginPage(null, "This login came from another site; open the login link itself.", 403);
    const text = await readCapped(req, MAX_FORM);
    const token = new URLSearchParams(text ?? "").get("t") ?? "";
    // a token that works is taken even while failures wait: 192 bits are not guessed, and one
    // address (every client behind ssh -L) must not lock the person out
    const redeemed = token ? o.logins.redeem(token, req.headers.get("user-agent") ?? "") : null;
    if (!redeemed) {
      const wait = limit.wait(conn.remote);
      if (wait) return loginPage(null, `Too many failed logins; try again in ${Math.ceil(wait / 1000)} s.`, 429);
      limit.failed(conn.remote);
      return loginPage(null, "This login link was used already or has expired: run troupe web login for a new one.", 401);
    }
    const cookie = `${COOKIE}=${redeemed.secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${LOGIN_MS / 1000}${secure ? "; Secure" : ""}`;
    // the page key in the fragment, which no server sees: the page keeps it in its origin's storage
    return new Response(null, { status: 303, headers: { ...SECURITY_HEADERS, location: `/#k=${redeemed.key}`, "set-cookie": cookie } });
  };

  const api = (req: Request, conn: TcpConnection, session: Session, path: string, query: string): Promise<Response> | Response => {
    if (path === "/api/sources") return Response.json(listed, { headers: SECURITY_HEADERS });
    if (path === "/api/logout" && req.method === "POST") {
      o.logins.revoke(session.login.id);
      return new Response(null, { status: 204, headers: { ...SECURITY_HEADERS, "set-cookie": `${COOKIE}=; Path=/; Max-Age=0` } });
    }
    const m = /^\/api\/s\/([^/]+)(\/v1\/.*)$/.exec(path);
    const source = m ? bySource.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !source) return jsonError(404, "not_found", `no such route: ${req.method} ${path}`);
    const e = endpointFor(req.method, m[2]!);
    if (!e) return jsonError(404, "not_found", `no endpoint ${req.method} ${m[2]}`);
    const reply = forward(source.transport, e, m[2]! + query, req, o.env);
    if (e.reply.kind !== "stream") return reply;
    conn.keepOpen();
    return reply.then((res) => keptOpen(res, session.login.id));
  };

  return async (req, conn) => {
    if (req.headers.has("authorization")) return jsonError(403, "forbidden", "agents' tokens are not taken here: the page acts as the person, by a login (troupe web login)");
    // a name this process was not told it is reached by (DNS rebinding: evil.example resolving to 127.0.0.1)
    if (!hosts.has(req.headers.get("host") ?? "")) return jsonError(421, "wrong_host", `this is troupe web at ${o.origin}; the Host ${req.headers.get("host") ?? "(none)"} is not its own`);
    const url = new URL(req.url);
    const changes = req.method !== "GET" && req.method !== "HEAD";
    if (url.pathname === "/login") return req.method === "POST" ? login(req, conn) : loginPage(url.searchParams.get("t"));
    if (url.pathname === "/manifest.webmanifest") return new Response(MANIFEST, { headers: { ...SECURITY_HEADERS, "content-type": "application/manifest+json" } });
    const secrets = cookiesOf(req);
    let session: Session | null = null;
    for (const secret of secrets) session ??= o.logins.check(secret);
    if (!session) {
      if (url.pathname.startsWith("/api/")) return jsonError(401, "unauthorized", "not logged in: open a login link (troupe web login)");
      return loginPage(null, secrets.length ? "This login has ended (revoked, expired, or unknown here): open a new login link." : null, url.pathname === "/" && !secrets.length ? 200 : 401);
    }
    if (url.pathname.startsWith("/api/")) {
      const key = req.headers.get(KEY_HEADER);
      if (!key || sha256Hex(key) !== session.keyHash) return jsonError(401, "unauthorized", "this page has no key of its login (open a new login link: troupe web login)");
      if (changes && !sameOrigin(req)) return jsonError(403, "forbidden", "a change must come from the page itself");
      return api(req, conn, session, url.pathname, url.search);
    }
    if (changes) return jsonError(405, "method_not_allowed", `${req.method} ${url.pathname}`);
    if (url.pathname === "/") return appPage(PAGE_ENTRY, PAGE_PRELOAD, listed);
    const asset = url.pathname.startsWith("/app/") ? assetResponse(url.pathname.slice(5), req.headers.get("accept-encoding")) : null;
    return asset ?? jsonError(404, "not_found", `no such page: ${url.pathname}`);
  };
}
