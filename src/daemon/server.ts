import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Services } from "../services/services.ts";
import { BUILD_VERSION, VERSION_HEADER, compareVersions } from "../self.ts";
import { serveUnix, type UnixServer } from "../runtime/serve.ts";
import { watchDir, type DirWatcher } from "../runtime/watch.ts";
import { ROWS } from "../protocol/api/index.ts";
import { identify } from "./auth.ts";
import { bufferBody } from "./body.ts";
import { errorResponse, json } from "./http.ts";
import type { Logger } from "../events/log.ts";
import type { Router } from "./router.ts";
import { workspaceCheck } from "./workspace-check.ts";

/** Answered whatever the client's version: to see which daemon runs, and to stop it (paths without parameters). */
const ANY_VERSION = new Set<string>(ROWS.filter(([, e]) => e.anyBuild).map(([, e]) => `${e.method} ${e.path}`));
const OLDER_BUILDS = new Set<string>(ROWS.filter(([, e]) => e.olderBuilds).map(([, e]) => `${e.method} ${e.path}`));

export interface ServeHooks {
  /** Every request, before it is handled: the daemon's idle clock. */
  onRequest(): void;
  /** A client of a newer build asked: this daemon steps aside for the one it will start. */
  onNewerClient(version: string): void;
}

export interface DaemonServer {
  /** Requests in flight, event streams and long polls included. */
  activeRequests(): number;
  stop(): void;
}

/** The client's build is newer (1) or older (-1) than this daemon's; 0 when they agree, it did not say, or the row serves it anyway. */
function versionSkew(req: Request, route: string): { skew: -1 | 0 | 1; theirs: string } {
  const theirs = req.headers.get(VERSION_HEADER);
  if (theirs === null || ANY_VERSION.has(route)) return { skew: 0, theirs: "" };
  const skew = compareVersions(theirs, BUILD_VERSION);
  return { skew: skew < 0 && OLDER_BUILDS.has(route) ? 0 : skew, theirs };
}

function closing(res: Response): Response {
  const headers = new Headers(res.headers);
  headers.set("connection", "close");
  return new Response(res.body, { status: res.status, headers });
}

/**
 * HTTP/1.1 on the Unix socket; every failure becomes `{error: {code, message}}`, never a crash.
 * `agents`: the agents' socket, on which every request needs a token (see identify).
 */
export function serve(
  where: { socket: string; root: string; agents?: boolean },
  router: Router,
  services: Pick<Services, "identify">,
  log: Logger,
  hooks: ServeHooks,
): DaemonServer {
  const { socket } = where;
  const otherWorkspace = workspaceCheck(where.root, socket);
  async function handle(req: Request): Promise<Response> {
    hooks.onRequest();
    // An HTTP/1.0 request may come without a Host header: its URL is then only a path. And Bun
    // builds the URL from whatever Host says (`troupe:99999`, `[::1` make it no URL at all), so
    // only the path and query count.
    let path = req.url;
    try {
      const target = req.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
      const url = new URL(`http://troupe${target.startsWith("/") ? "" : "/"}${target}`);
      path = url.pathname;
      const m = router.match(req.method, url.pathname);
      if (!m) return errorResponse("not_found", `no route ${req.method} ${url.pathname}`);
      if ("allowed" in m) {
        const res = errorResponse("method_not_allowed", `${req.method} not allowed on ${url.pathname} (use ${m.allowed.join(", ")})`);
        return new Response(res.body, { status: 405, headers: { "content-type": "application/json", allow: m.allowed.join(", ") } });
      }
      // before anything else: a request meant for another workspace must not act here, nor stop this daemon
      const refusal = otherWorkspace(req);
      if (refusal !== null) return errorResponse("workspace_mismatch", refusal);
      const { skew, theirs } = versionSkew(req, `${req.method} ${m.pattern}`);
      if (skew > 0) {
        hooks.onNewerClient(theirs);
        return errorResponse("daemon_outdated", `this daemon is troupe ${BUILD_VERSION}, older than the client's ${theirs}; it is stopping so that a new one starts`);
      }
      if (skew < 0) {
        return errorResponse("client_outdated", `this troupe (${theirs}) is older than the workspace's daemon (${BUILD_VERSION}): run the newer troupe, or 'troupe daemon restart' to go back to this one`);
      }
      // the handler asks for the body only once the caller may make the call: a refused one is never read
      const hasBody = req.body !== null && req.headers.get("content-length") !== "0";
      const read: { body: Promise<Uint8Array> | null } = { body: null };
      const readBody = () => (read.body ??= hasBody ? bufferBody(req) : Promise.resolve(new Uint8Array(0)));
      try {
        const caller = identify(req, services, where.agents);
        return await m.handler({ req, url, params: m.params, caller, readBody });
      } catch (err) {
        // a body cut short (stalled, oversized) may never end: that connection is not reusable; one
        // left unread (its caller refused first) Bun skips as it comes, and the connection goes on
        const cutShort = read.body !== null && (await read.body.then(() => false, () => true));
        if (cutShort && err instanceof TroupeError) return closing(errorResponse(err.code, err.message));
        throw err;
      }
    } catch (err) {
      if (err instanceof TroupeError) return errorResponse(err.code, err.message);
      log.error(`${req.method} ${path} failed`, err);
      return errorResponse("internal", errorMessage(err));
    }
  }
  // Connected clients, counted here (Bun's own count misses a stream waiting for its next event):
  // a request until it is answered, an event stream until the client goes away.
  let active = 0;
  async function counted(req: Request): Promise<Response> {
    active++;
    let streaming = false;
    try {
      const res = await handle(req);
      streaming = res.headers.get("content-type") === "text/event-stream";
      return res;
    } finally {
      if (!streaming) active--;
      else if (req.signal.aborted) active--;
      else
        req.signal.addEventListener(
          "abort",
          () => {
            active--;
            hooks.onRequest(); // a client leaving ends a hold: the idle clock starts from here
          },
          { once: true },
        );
    }
  }
  const error = (err: Error): Response => {
    log.error("server error", err);
    return json({ error: { code: "internal", message: errorMessage(err) } }, 500);
  };

  let server: UnixServer;
  const listen = () => {
    mkdirSync(dirname(socket), { recursive: true, mode: 0o700 }); // the agents' socket has a folder of its own
    rmSync(socket, { force: true }); // a stale socket of a dead daemon; the lock says we are the only one
    server = serveUnix({ socket, fetch: counted, error });
    chmodSync(socket, 0o600);
  };
  listen();

  // A socket file deleted under a live daemon (a tmp cleaner, a careless rm) leaves it unreachable
  // while it holds the lock, so no other can start: put the socket back. The watch is inotify, no polling.
  let watcher: DirWatcher | null = null;
  const watchSocket = () => {
    watcher?.close();
    watcher = watchDir(
      dirname(socket),
      (_event, name) => {
        if (name !== null && name !== basename(socket) && name !== basename(dirname(socket))) return;
        if (existsSync(socket)) return;
        log.warn(`socket ${socket} was removed; listening on it again`);
        try {
          server.stop(false); // requests in flight finish on their connections
          mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
          listen();
          watchSocket(); // the folder may be a new one
        } catch (err) {
          log.error("cannot listen again", err);
        }
      },
      (err) => log.error("socket watch", err),
    );
  };
  watchSocket();

  return {
    activeRequests: () => active,
    stop: () => {
      watcher?.close();
      server.stop(true);
    },
  };
}
