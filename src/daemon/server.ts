import { chmodSync, rmSync } from "node:fs";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Services } from "../services/services.ts";
import { identify } from "./auth.ts";
import { errorResponse, json } from "./http.ts";
import type { Logger } from "../events/log.ts";
import type { Router } from "./router.ts";

/** HTTP/1.1 on the Unix socket; every failure becomes `{error: {code, message}}`, never a crash. */
export function serve(socket: string, router: Router, services: Pick<Services, "identify">, log: Logger) {
  rmSync(socket, { force: true }); // a stale socket of a dead daemon; the lock says we are the only one
  const options = {
    unix: socket,
    async fetch(req: Request) {
      const url = new URL(req.url);
      try {
        const m = router.match(req.method, url.pathname);
        if (!m) return errorResponse("not_found", `no route ${req.method} ${url.pathname}`);
        if ("allowed" in m) {
          const res = errorResponse("method_not_allowed", `${req.method} not allowed on ${url.pathname} (use ${m.allowed.join(", ")})`);
          return new Response(res.body, { status: 405, headers: { "content-type": "application/json", allow: m.allowed.join(", ") } });
        }
        const caller = identify(req, services);
        return await m.handler({ req, url, params: m.params, caller });
      } catch (err) {
        if (err instanceof TroupeError) return errorResponse(err.code, err.message);
        log.error(`${req.method} ${url.pathname} failed`, err);
        return errorResponse("internal", errorMessage(err));
      }
    },
    error(err: Error) {
      log.error("server error", err);
      return json({ error: { code: "internal", message: errorMessage(err) } }, 500);
    },
  };
  // Long polls and event streams stay open: the default idle timeout (10 s) would cut them.
  // Bun's types omit idleTimeout for Unix sockets, but it applies there (a streamed response
  // with `server.timeout(req, 0)` is still cut), so it is set through a widened type.
  const server = Bun.serve({ ...options, idleTimeout: 0 } as typeof options);
  chmodSync(socket, 0o600);
  return server;
}
