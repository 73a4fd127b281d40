import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Services } from "../services/services.ts";
import { MAX_BODY_BYTES } from "../protocol/api-base.ts";
import { BUILD_VERSION, VERSION_HEADER, compareVersions } from "../self.ts";
import { serveUnix, type UnixServer } from "../runtime/serve.ts";
import { watchDir, type DirWatcher } from "../runtime/watch.ts";
import { identify } from "./auth.ts";
import { errorResponse, json } from "./http.ts";
import type { Logger } from "../events/log.ts";
import type { Router } from "./router.ts";

/** A request body that stops arriving for this long is answered 408 and its connection closed. */
export const BODY_IDLE_MS = 10_000;

/** Answered whatever the client's version: to see which daemon runs, and to stop it. */
const ANY_VERSION = new Set(["/v1/health", "/v1/daemon/stop"]);

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

/**
 * A body of a declared length up to this is read in one native call under one deadline (it
 * mostly came with the headers): the stream reader below cost ~90 µs of CPU per request, five
 * times what Bun's own serving of it costs. Such a body taking BODY_IDLE_MS in all has stalled.
 */
const WHOLE_READ_BYTES = 64 * 1024;

/** `read`, or a 408 once BODY_IDLE_MS pass first. */
async function withinBodyDeadline<T>(read: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TroupeError("timeout", `request body stalled for ${BODY_IDLE_MS / 1000} s`)), BODY_IDLE_MS);
  });
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a request body whole, answering 408 when it stalls for BODY_IDLE_MS. The server's own
 * idle timeout stays off (it would cut event streams and long polls, and Bun ignores a
 * per-request override on streams), so slow bodies are timed out here instead.
 */
async function bufferBody(req: Request): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (Number(declared ?? "0") > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
  if (declared !== null && Number(declared) <= WHOLE_READ_BYTES) {
    const whole = req.bytes();
    // a stalled read rejects once its connection is closed: that is expected, not an error
    whole.catch(() => {});
    return withinBodyDeadline(whole);
  }
  const reader = req.body!.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    try {
      const { done, value } = await withinBodyDeadline(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
      chunks.push(value);
    } catch (err) {
      void reader.cancel().catch(() => {});
      throw err;
    }
  }
  return Buffer.concat(chunks);
}

/** The client's build is newer (1) or older (-1) than this daemon's; 0 when they agree or it did not say. */
function versionSkew(req: Request, path: string): { skew: -1 | 0 | 1; theirs: string } {
  const theirs = req.headers.get(VERSION_HEADER);
  if (theirs === null || ANY_VERSION.has(path)) return { skew: 0, theirs: "" };
  return { skew: compareVersions(theirs, BUILD_VERSION), theirs };
}

function closing(res: Response): Response {
  const headers = new Headers(res.headers);
  headers.set("connection", "close");
  return new Response(res.body, { status: res.status, headers });
}

/** HTTP/1.1 on the Unix socket; every failure becomes `{error: {code, message}}`, never a crash. */
export function serve(socket: string, router: Router, services: Pick<Services, "identify">, log: Logger, hooks: ServeHooks): DaemonServer {
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
      const { skew, theirs } = versionSkew(req, url.pathname);
      if (skew > 0) {
        hooks.onNewerClient(theirs);
        return errorResponse("daemon_outdated", `this daemon is troupe ${BUILD_VERSION}, older than the client's ${theirs}; it is stopping so that a new one starts`);
      }
      if (skew < 0) {
        return errorResponse("client_outdated", `this troupe (${theirs}) is older than the workspace's daemon (${BUILD_VERSION}): run the newer troupe, or 'troupe daemon restart' to go back to this one`);
      }
      let request = req;
      if (req.body && req.method !== "GET" && req.method !== "HEAD") {
        try {
          request = new Request(url.href, { method: req.method, headers: req.headers, body: await bufferBody(req) });
        } catch (err) {
          // the rest of a stalled or oversized body may never come: the connection is not reusable
          if (err instanceof TroupeError) return closing(errorResponse(err.code, err.message));
          throw err;
        }
      }
      const caller = identify(request, services);
      return await m.handler({ req: request, url, params: m.params, caller });
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
