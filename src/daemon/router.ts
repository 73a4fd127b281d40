import type { Caller } from "../services/services.ts";

export interface RouteContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  caller: Caller;
}

export type Handler = (ctx: RouteContext) => Promise<Response> | Response;

interface Route {
  method: string;
  /** One per path segment: the literal it must equal, or null for a `:param`. */
  literals: (string | null)[];
  /** The param names, by segment index. */
  names: (string | null)[];
  handler: Handler;
}

/**
 * Method + path pattern (`/v1/agents/:ref`) to handler; nothing more is needed here. Every request
 * goes through `match`, so it compares segments in a plain loop over the routes of its length and
 * decodes params only for a route that matches (closures and decoding per route were a quarter of
 * the daemon's time in an ask → answer round trip).
 */
export class Router {
  /** By segment count, each in registration order (the first match wins). */
  private readonly bySize = new Map<number, Route[]>();

  on(method: string, pattern: string, handler: Handler): this {
    const parts = pattern.split("/").filter(Boolean);
    const route: Route = {
      method,
      literals: parts.map((p) => (p.startsWith(":") ? null : p)),
      names: parts.map((p) => (p.startsWith(":") ? p.slice(1) : null)),
      handler,
    };
    const list = this.bySize.get(parts.length);
    if (list) list.push(route);
    else this.bySize.set(parts.length, [route]);
    return this;
  }

  /** The handler and its params; `allowed` lists methods when only the method is wrong. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | { allowed: string[] } | null {
    const segs = path.split("/").filter(Boolean);
    const allowed: string[] = [];
    for (const r of this.bySize.get(segs.length) ?? []) {
      if (!literalsMatch(r.literals, segs)) continue;
      const params = decodeParams(r.names, segs);
      if (!params) continue;
      if (r.method === method) return { handler: r.handler, params };
      allowed.push(r.method);
    }
    return allowed.length ? { allowed } : null;
  }
}

function literalsMatch(literals: (string | null)[], segs: string[]): boolean {
  for (let i = 0; i < literals.length; i++) {
    const lit = literals[i];
    if (lit !== null && lit !== segs[i]) return false;
  }
  return true;
}

/** The route's params, or null when one is not valid percent-encoding. */
function decodeParams(names: (string | null)[], segs: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === null || name === undefined) continue;
    try {
      params[name] = decodeURIComponent(segs[i]!);
    } catch {
      return null;
    }
  }
  return params;
}
