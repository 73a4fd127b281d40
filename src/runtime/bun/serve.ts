import { TCP_IDLE_SECONDS, type ServeTcp, type ServeUnix, type UnixFetch } from "../contract.ts";

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

export const serveTcp: ServeTcp = (opts) => {
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    idleTimeout: TCP_IDLE_SECONDS,
    fetch: (req, srv) => opts.fetch(req, { remote: srv.requestIP(req)?.address ?? "", keepOpen: () => srv.timeout(req, 0) }),
    error: opts.error,
  });
  return {
    port: server.port ?? opts.port,
    stop: (closeActive) => void server.stop(closeActive),
  };
};
