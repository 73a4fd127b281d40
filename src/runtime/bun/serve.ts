import type { ServeUnix, UnixFetch } from "../contract.ts";

export const serveUnix: ServeUnix = (opts) => {
  const options = { unix: opts.socket, fetch: opts.fetch, error: opts.error };
  // Bun's types omit idleTimeout for Unix sockets, but it applies there, and a streamed
  // response is cut by it even after `server.timeout(req, 0)`: off, through a widened type.
  const server = Bun.serve({ ...options, idleTimeout: 0 } as typeof options);
  return {
    stop: (closeActive) => void server.stop(closeActive),
  };
};

export const unixFetch: UnixFetch = (socket, url, init) => fetch(url, { ...init, unix: socket });
