import type { ServeUnix, UnixFetch } from "../contract.ts";
import { Deno, type HttpClient } from "./api.ts";

export const serveUnix: ServeUnix = (opts) => {
  const cut = new AbortController();
  const server = Deno.serve({
    path: opts.socket,
    // aborting cuts every connection, event streams included; shutdown() waits for them
    signal: cut.signal,
    handler: (req) => opts.fetch(req),
    onError: (err) => opts.error(err instanceof Error ? err : new Error(String(err))),
    // the default prints "Listening on ..." to stdout
    onListen: () => {},
  });
  return {
    stop: (closeActive) => {
      if (closeActive) cut.abort();
      else void server.shutdown();
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
  try {
    return await fetch(url, { ...init, client } as RequestInit);
  } catch (err) {
    // the client tells a request that never reached a daemon by its code: Deno gives only a message
    const os = /\(os error (\d+)\)/.exec(String((err as Error).cause ?? ""))?.[1];
    const code = os === undefined ? undefined : OS_ERRORS[os];
    if (code && err instanceof Error) Object.assign(err, { code });
    throw err;
  }
};
