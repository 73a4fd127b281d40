import { connect, createServer, type Server, type Socket } from "node:net";
import { rmSync } from "node:fs";
import { errorMessage } from "../errors.ts";
import { hostAllowed } from "./hosts.ts";

/** The most a request's head may take before the proxy refuses it. */
const MAX_HEAD = 64 * 1024;
const HEAD_END = "\r\n\r\n";

/** How long a refused client has to read its answer before its connection is dropped. */
const LINGER_MS = 2000;

/**
 * A refused or failed request's answer: the status and one line that names the host and why.
 * Nothing more is read from the client, and its connection goes once the answer is out.
 */
function answer(socket: Socket, status: string, line: string): void {
  const body = `troupe sandbox: ${line}\n`;
  socket.removeAllListeners("data");
  socket.on("data", () => {});
  socket.resume();
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * A host as it may be asked for: a name or IPv4 of letters, digits, dots, dashes and
 * underscores, or an IPv6 address. Nothing else reaches the rules or the resolver: a NUL or a
 * `%` there would be cut or read otherwise by the lookup than by the `*.` rule that let it through.
 */
const HOST_NAME = /^[A-Za-z0-9._-]{1,253}$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

function validTarget(host: string, port: number): boolean {
  return (HOST_NAME.test(host) || (host.includes(":") && IPV6.test(host))) && Number.isInteger(port) && port >= 1 && port <= 65535;
}

interface Target {
  host: string;
  port: number;
  /**
   * The head to send on: none for CONNECT (a tunnel), else the request in origin form with its
   * Host the URL's and `Connection: close`. What the client sends after it goes to the same host.
   */
  head: string | null;
}

/** Where a proxy request goes: `CONNECT host:port` (a tunnel) or an absolute `http://` URI; null when it is neither. */
function targetOf(head: string): Target | null {
  const [line = "", ...headers] = head.split("\r\n");
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(line);
  if (!m) return null;
  const [, method, uri, version] = m as unknown as [string, string, string, string];
  if (method === "CONNECT") {
    const t = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(uri);
    if (!t) return null;
    const target = { host: t[1]!.replace(/^\[(.*)\]$/, "$1"), port: Number(t[2]), head: null };
    return validTarget(target.host, target.port) ? target : null;
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== "http:") return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || 80);
  if (!validTarget(host, port)) return null;
  // the server is told the host that was checked, never one of the client's own Host line
  const kept = headers.filter((h) => h && !/^(host|proxy-connection|proxy-authorization|connection|keep-alive):/i.test(h));
  const rewritten = [`${method} ${url.pathname}${url.search} ${version}`, `Host: ${url.host}`, ...kept, "Connection: close"].join("\r\n") + HEAD_END;
  return { host, port, head: rewritten };
}

/**
 * network `allow`'s proxy (docs/security.md, "The network"): an HTTP proxy on a Unix socket,
 * outside the sandbox, that the agent's bridge (net-bridge.ts) carries its connections to. It
 * tunnels `CONNECT host:port` and forwards plain `http://` requests to the hosts the rules allow,
 * and refuses any other at once with a 403 that names the host; `refused` hears of each refusal.
 */
export function serveAllowProxy(socketPath: string, rules: readonly string[], refused: (host: string, port: number) => void): Promise<Server> {
  const server = createServer((client) => {
    let buffered = Buffer.alloc(0);
    client.on("error", () => {});
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(HEAD_END);
      if (end < 0) {
        if (buffered.length > MAX_HEAD) answer(client, "431 Request Header Fields Too Large", "the request's head is too large");
        return;
      }
      client.off("data", onData);
      client.pause();
      const target = targetOf(buffered.subarray(0, end).toString("latin1"));
      const rest = buffered.subarray(end + HEAD_END.length);
      if (!target) return answer(client, "400 Bad Request", "only CONNECT host:port and http:// requests go through this proxy");
      if (!hostAllowed(rules, target.host, target.port)) {
        refused(target.host, target.port);
        return answer(client, "403 Forbidden", `${target.host}:${target.port} is not in sandbox.allowHosts (network allow)`);
      }
      let upstream: Socket;
      try {
        upstream = connect({ host: target.host, port: target.port });
      } catch (err) {
        return answer(client, "502 Bad Gateway", `${target.host}:${target.port}: ${errorMessage(err)}`);
      }
      upstream.once("error", (err) => {
        if (!client.writableEnded) answer(client, "502 Bad Gateway", `${target.host}:${target.port}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        upstream.destroy();
      });
      upstream.once("connect", () => {
        upstream.removeAllListeners("error");
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        if (target.head === null) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        else upstream.write(target.head);
        if (rest.length) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    client.on("data", onData);
  });
  rmSync(socketPath, { force: true });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve(server));
  });
}
