import type { Caller } from "../services/services.ts";

interface RouteContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  caller: Caller;
  /** The request body, read whole when first asked for (408 when it stalls, 413 past the limit). */
  readBody(): Promise<Uint8Array>;
}

export type Handler = (ctx: RouteContext) => Promise<Response> | Response;

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

/** Method + path pattern (`/v1/agents/:ref`) to handler; nothing more is needed here. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  /** The handler and its params; `allowed` lists methods when only the method is wrong. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string>; pattern: string } | { allowed: string[] } | null {
    const segs = path.split("/").filter(Boolean);
    const allowed: string[] = [];
    for (const r of this.routes) {
      if (r.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      const ok = r.parts.every((p, i) => {
        if (p.startsWith(":")) {
          try {
            params[p.slice(1)] = decodeURIComponent(segs[i]!);
          } catch {
            return false;
          }
          return true;
        }
        return p === segs[i];
      });
      if (!ok) continue;
      if (r.method === method) return { handler: r.handler, params, pattern: `/${r.parts.join("/")}` };
      allowed.push(r.method);
    }
    return allowed.length ? { allowed } : null;
  }
}
