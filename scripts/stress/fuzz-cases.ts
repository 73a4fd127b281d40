/**
 * The fuzz pass's case generator: from the daemon's routes (the API table, src/protocol/api/)
 * and a seeded PRNG, raw HTTP requests that are wrong in one way each. Pure: no I/O.
 */
import { ROWS } from "../../src/protocol/api/index.ts";

export interface Route {
  method: string;
  pattern: string;
}

export interface FuzzCase {
  /** The route the request aims at ("METHOD /pattern"), or "(raw)" for a broken request line. */
  route: string;
  kind: string;
  method: string;
  /** Everything up to and including the blank line. */
  head: string;
  body: Uint8Array;
  /** Sends only this many body bytes and then nothing more: the daemon must answer 408. */
  stallAt?: number;
  /** A long poll asked to wait: still open at `holdMs` is as asked, not a hang. */
  longPoll: boolean;
  /** Custom methods Bun drops without a reply (oven-sh/bun#6556): counted apart. */
  custom: boolean;
}

/** Every route of the API table, so a new route is fuzzed without editing this. */
export function readRoutes(): Route[] {
  return ROWS.map(([, e]) => ({ method: e.method, pattern: e.path }));
}

/** A route's valid body, mutated by the body cases; routes not listed get `{}`. */
const BASE_BODIES: Record<string, Record<string, unknown>> = {
  "POST /v1/agents": { provider: "generic", command: "true", worktree: false },
  "POST /v1/agents/:ref/resume": { message: "again", answers: [{ id: "q1", answer: "yes" }] },
  "POST /v1/signal": { status: "done", result: "fuzz" },
  "POST /v1/conversations": { question: "fuzz?", user: true, timeoutMs: 200 },
  "POST /v1/conversations/:id/answer": { answer: "yes" },
};

/** Query parameters each route reads (the int ones are checked as whole numbers). */
const QUERY: Record<string, string[]> = {
  "GET /v1/agents/:ref/output": ["after", "before", "session", "limit"],
  "GET /v1/conversations/:id": ["wait"],
  "GET /v1/listen": ["wait"],
  "GET /v1/events": ["since", "output"],
  "GET /v1/conversations": ["pending"],
};
const LONG_POLLS = new Set(["GET /v1/conversations/:id", "GET /v1/listen"]);
/** A valid request here stops the daemon: only requests that must be refused before the handler. */
const STOPS_DAEMON = "POST /v1/daemon/stop";

const STANDARD = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const CUSTOM = ["BREW", "FOO", "get", "Post", "X-CUSTOM", "M".repeat(64)];
const BAD_INTS = ["-1", "-99999999999999999999", "99999999999999999999999", "1e400", "9".repeat(400), "abc", "", "1.5", "0x10", "%00", "NaN", "Infinity", "%201", "1,2", "+1", "%F0%9F%99%82"];
const GOOD_INTS = ["0", "1", "3", "10000", "2"];
const BAD_PARAMS = ["%2F", "a%2Fb", "..%2F..%2Fetc%2Fpasswd", "%2E%2E", "%2e", "%00", "a%00b", "%ZZ", "%", "%C0%AF", "%C3%BC", "%F0%9F%99%82", "%E2%80%AE", "x".repeat(10_000), "%25", "%20", "null", "-1", "CON"];
const WRONG_TYPES: unknown[] = [null, 0, -1, 1e308, 1.5, true, false, [], {}, "", "s", [1, "a"], { $gt: "" }, [[[]]]];
const AUTHS = ["Bearer", "Bearer ", "Bearer forged-token-0123456789abcdef", "Basic dXNlcjpwYXNz", "bearer abc", `Bearer ${"a".repeat(8000)}`, "Bearer a b", "Token x", "\u00ff\u00fe", "Bearer ../../etc/passwd"];
const VERSIONS = ["garbage", "0.0.1", "", "0.1.0+abc", "0.0.0+1", "-1", "\u00ff"]; // never a newer one: that stops the daemon by design
const HOSTS = ["", "a b", "x".repeat(5000), "troupe:99999", "[::1", "\u00ff", "localhost, evil"];

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const enc = new TextEncoder();

interface Req {
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: Uint8Array | null;
  stallAt?: number;
  chunked?: boolean;
}

function headOf(q: Req): string {
  const lines = [`${q.method} ${q.path}${q.query ? `?${q.query}` : ""} HTTP/1.1`, ...q.headers.map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function fill(pattern: string, r: Rng, refs: string[], bad: boolean): string {
  return pattern
    .split("/")
    .map((p) => (p.startsWith(":") ? (bad ? pick(r, BAD_PARAMS) : encodeURIComponent(pick(r, refs))) : p))
    .join("/");
}

function validQuery(r: Rng, names: string[]): string {
  return names.map((n) => (n === "output" ? `${n}=${pick(r, ["none", "x,y"])}` : n === "pending" ? n : `${n}=${pick(r, GOOD_INTS)}`)).filter(() => r() < 0.5).join("&");
}

/** Sets a (possibly nested) field of a body to a value. */
function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  return { ...body, [field]: value };
}

const BODY_KINDS = ["garbage-body", "truncated-json", "huge-body", "nested-json", "wrong-type", "nul", "huge-string", "extra-field"];
const ALL_KINDS = ["valid", "wrong-method", "custom-method", ...BODY_KINDS, "path-param", "query", "no-host", "garbage-host", "auth", "version", "stalled-chunked", "stalled-length", "bad-length", "header-flood", "raw"];
const STOP_KINDS = ["wrong-method", "custom-method", "auth", "stalled-chunked", "stalled-length"];

/** The `i`-th case of a seeded pass; `refs` are ids and names that exist (agents, conversations). */
export function makeCase(routes: Route[], r: Rng, refs: string[]): FuzzCase {
  const route = pick(r, routes);
  const key = `${route.method} ${route.pattern}`;
  const kind = pick(r, key === STOPS_DAEMON ? STOP_KINDS : ALL_KINDS);
  const base = BASE_BODIES[key] ?? {};
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  const q: Req = {
    method: route.method,
    path: fill(route.pattern, r, refs, false),
    query: validQuery(r, QUERY[key] ?? []),
    headers: [["Host", "troupe"], ["Connection", "close"]],
    body: hasBody ? enc.encode(JSON.stringify(base)) : null,
  };
  const fields = Object.keys(base);
  const field = fields.length ? pick(r, fields) : "x";
  let custom = false;
  switch (kind) {
    case "valid":
      break;
    case "wrong-method": {
      const allowed = new Set(routes.filter((x) => x.pattern === route.pattern).map((x) => x.method));
      q.method = pick(r, STANDARD.filter((m) => !allowed.has(m) && !(m === "HEAD" && allowed.has("GET"))));
      break;
    }
    case "custom-method":
      q.method = pick(r, CUSTOM);
      custom = true;
      break;
    case "garbage-body":
      q.body = Uint8Array.from({ length: Math.floor(r() * 2000) }, () => Math.floor(r() * 256));
      break;
    case "truncated-json": {
      const full = JSON.stringify(base);
      q.body = enc.encode(full.slice(0, Math.floor(r() * full.length)));
      break;
    }
    case "huge-body":
      q.body = r() < 0.5 ? new Uint8Array(4 * 1024 * 1024 + 1).fill(0x20) : enc.encode(JSON.stringify(withField(base, field, "y".repeat(3 * 1024 * 1024))));
      break;
    case "nested-json": {
      const depth = pick(r, [1000, 100_000, 1_000_000]);
      q.body = enc.encode(r() < 0.5 ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth / 10) + "1" + "}".repeat(depth / 10));
      break;
    }
    case "wrong-type":
      q.body = enc.encode(JSON.stringify(r() < 0.2 ? pick(r, WRONG_TYPES) : withField(base, field, pick(r, WRONG_TYPES))));
      break;
    case "nul":
      q.body = enc.encode(JSON.stringify(withField(base, field, `a\u0000b${typeof base[field] === "string" ? base[field] : ""}`)));
      break;
    case "huge-string":
      q.body = enc.encode(JSON.stringify(withField(base, field, "z".repeat(pick(r, [130 * 1024, 1024 * 1024, 3 * 1024 * 1024])))));
      break;
    case "extra-field":
      q.body = enc.encode(JSON.stringify({ ...base, ["__proto__"]: { polluted: true }, constructor: { prototype: 1 }, ["x".repeat(1000)]: 1 }));
      break;
    case "path-param":
      q.path = route.pattern.includes(":") ? fill(route.pattern, r, refs, true) : `${route.pattern}/${pick(r, BAD_PARAMS)}`;
      break;
    case "query": {
      const names = QUERY[key] ?? ["limit", "x"];
      q.query = names.map((n) => `${n}=${pick(r, BAD_INTS)}`).join("&") + (r() < 0.3 ? `&${names[0]}=1` : "");
      break;
    }
    case "no-host":
      q.headers = q.headers.filter(([k]) => k !== "Host");
      break;
    case "garbage-host":
      q.headers[0] = ["Host", pick(r, HOSTS)];
      break;
    case "auth":
      q.headers.push(["Authorization", pick(r, AUTHS)]);
      break;
    case "version":
      q.headers.push(["troupe-version", pick(r, VERSIONS)]);
      break;
    case "stalled-chunked":
      q.body ??= enc.encode("{}");
      q.chunked = true;
      break;
    case "stalled-length":
      q.body = enc.encode(JSON.stringify(base).padEnd(100, " "));
      q.stallAt = Math.floor(r() * 50);
      break;
    case "bad-length":
      q.body ??= enc.encode("{}");
      q.headers.push(["Content-Length", pick(r, ["abc", "-1", "1, 2", "99999999999999999999", ""])]);
      break;
    case "header-flood":
      if (r() < 0.5) for (let i = 0; i < 500; i++) q.headers.push([`X-H${i}`, "v"]);
      else q.headers.push(["X-Big", "b".repeat(pick(r, [16 * 1024, 100 * 1024]))]);
      break;
    case "raw":
      break;
  }
  if (kind === "raw") {
    const line = pick(r, [`GET ${q.path} HTTP/9.9`, `GET  HTTP/1.1`, "\u0000\u0001\u0002", `GET ${q.path}`, `${q.path} GET HTTP/1.1`, `GET http://evil${q.path} HTTP/1.1`, `GET ${q.path} HTTP/1.1\nHost: troupe`]);
    return { route: "(raw)", kind, method: "?", head: `${line}\r\nHost: troupe\r\nConnection: close\r\n\r\n`, body: new Uint8Array(), longPoll: false, custom: false };
  }
  const body = q.body ?? new Uint8Array();
  if (q.chunked) {
    q.headers.push(["Content-Type", "application/json"], ["Transfer-Encoding", "chunked"]);
    // one chunk of what was promised, then nothing: no terminating chunk
    const first = body.subarray(0, Math.max(1, Math.floor(body.length / 2)));
    const framed = new Uint8Array([...enc.encode(`${body.length.toString(16)}\r\n`), ...first]);
    return { route: key, kind, method: q.method, head: headOf(q), body: framed, stallAt: framed.length, longPoll: false, custom };
  }
  if (q.body !== null) {
    q.headers.push(["Content-Type", "application/json"]);
    if (kind !== "bad-length") q.headers.push(["Content-Length", String(body.length)]);
  }
  const waits = LONG_POLLS.has(key) && /(^|&)wait=0*[1-9]\d*(&|$)/.test(q.query);
  return { route: key, kind, method: q.method, head: headOf(q), body, stallAt: q.stallAt, longPoll: waits, custom };
}
