/**
 * An HTTP server on 127.0.0.1 for scripts and tests (the fake model APIs), written as a fetch
 * handler, over node:http: the same under Bun and Deno.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalServer {
  port: number;
  /** Stops listening and cuts every connection. */
  stop(): void;
}

async function toRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, { method: req.method, headers, body });
}

async function send(res: Response, out: ServerResponse): Promise<void> {
  out.writeHead(res.status, Object.fromEntries(res.headers));
  if (res.body) for await (const chunk of res.body) out.write(chunk);
  out.end();
}

/** Listens on a free port of 127.0.0.1; resolves once it does. */
export async function serveLocal(fetch: (req: Request) => Response | Promise<Response>): Promise<LocalServer> {
  let port = 0;
  const server = createServer((req, out) => {
    toRequest(req, port)
      .then(fetch)
      .then((res) => send(res, out))
      .catch((err: unknown) => {
        if (!out.headersSent) out.writeHead(500);
        out.end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    stop: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}
