import { renameSync, rmSync, statSync } from "node:fs";
import type { ServeTcp, ServeUnix, UnixFetch } from "../contract.ts";
import { Deno, type HttpClient } from "./api.ts";
import { bodyEndsOnAbort } from "./abort-body.ts";

/** Names for a listener's own socket file (see serveUnix), unique in this process. */
let listeners = 0;

/**
 * Deno's server unlinks its socket path when it closes, whatever file is there by then: a daemon
 * that listens again on the same path (its socket was deleted) would lose the new socket when the
 * old server finished. So each server listens on a name of its own and the socket is renamed into
 * place at once (a Unix socket keeps working under a new name); the server's own unlink finds
 * nothing, and stop() removes the socket itself, only while it is still this server's.
 */
export const serveUnix: ServeUnix = (opts) => {
  const own = `${opts.socket}.${process.pid}.${++listeners}`;
  rmSync(own, { force: true });
  const cut = new AbortController();
  const server = Deno.serve({
    path: own,
    // aborting cuts every connection, event streams included; shutdown() waits for them
    signal: cut.signal,
    handler: (req) => opts.fetch(req),
    onError: (err) => opts.error(err instanceof Error ? err : new Error(String(err))),
    // the default prints "Listening on ..." to stdout
    onListen: () => {},
  });
  renameSync(own, opts.socket);
  const inode = statSync(opts.socket).ino;
  let stopped = false;
  return {
    stop: (closeActive) => {
      if (stopped) return; // a second abort or shutdown throws in Deno
      stopped = true;
      try {
        if (statSync(opts.socket).ino === inode) rmSync(opts.socket);
      } catch {
        // gone already
      }
      if (closeActive) cut.abort();
      else void server.shutdown().catch(() => {});
    },
  };
};

/** One client per socket: it keeps its connections for the next request, as Bun's fetch does. */
const clients = new Map<string, HttpClient>();

/** The OS error in Deno's message ("... (os error 2)"), as the code Node and Bun give it. */
const OS_ERRORS: Record<string, string> = { "2": "ENOENT", "111": "ECONNREFUSED", "13": "EACCES" };

export const unixFetch: UnixFetch = async (socket, url, init) => {
  let client = clients.get(socket);
  if (!client) {
    client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
    clients.set(socket, client);
  }
  // Deno resolves the URL's host even when the socket carries the request: "troupe" went to DNS
  // on every request, ~5 ms at best, and 5 s whenever the resolver lost a reply (30 clients
  // starting a daemon at once, offline). An IP literal is never looked up; the daemon reads no Host.
  const target = new URL(url);
  target.hostname = "127.0.0.1";
  let res: Response;
  try {
    res = await fetch(target, { ...init, client } as RequestInit);
  } catch (err) {
    // the client tells a request that never reached a daemon by its code: Deno gives only a message
    const os = /\(os error (\d+)\)/.exec(String((err as Error).cause ?? ""))?.[1];
    const code = os === undefined ? undefined : OS_ERRORS[os];
    if (code && err instanceof Error) Object.assign(err, { code });
    throw err;
  }
  // Deno's own abort of a body can be lost to a garbage collection (see abort-body.ts)
  return init?.signal ? bodyEndsOnAbort(res, init.signal) : res;
};

/** Deno's server keeps no idle timeout of its own to lift: `keepOpen` has nothing to do. */
export const serveTcp: ServeTcp = (opts) => {
  const cut = new AbortController();
  const server = Deno.serve({
    hostname: opts.hostname,
    port: opts.port,
    signal: cut.signal,
    handler: (req, info) => opts.fetch(req, { remote: info.remoteAddr.hostname, keepOpen: () => {} }),
    onError: (err) => opts.error(err instanceof Error ? err : new Error(String(err))),
    onListen: () => {},
  });
  let stopped = false;
  return {
    port: server.addr?.port ?? opts.port,
    stop: (closeActive) => {
      if (stopped) return;
      stopped = true;
      if (closeActive) cut.abort();
      else void server.shutdown().catch(() => {});
    },
  };
};
