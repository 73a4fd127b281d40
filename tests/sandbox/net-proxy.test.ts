import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveAllowProxy } from "../../src/sandbox/net-proxy.ts";

/**
 * network allow's proxy as a hostile agent talks to it: raw bytes on its socket, an upstream on
 * 127.0.0.1 that records what reaches it. A request the rules do not let through reaches nothing;
 * the proxy goes on serving after each.
 */

const dir = mkdtempSync(join(tmpdir(), "troupe-proxy-"));
const socket = join(dir, "proxy.sock");
let proxy: Server;
let upstream: Server;
let port = 0;
/** Each connection that reached the upstream, with what it was sent. */
const reached: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  upstream = createServer((c) => {
    const i = reached.push("") - 1;
    c.on("data", (d) => {
      reached[i] += d.toString("latin1");
      if (reached[i]!.includes("\r\n\r\n")) c.end("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  port = (upstream.address() as { port: number }).port;
  proxy = await serveAllowProxy(socket, ["*.example.com", `127.0.0.1:${port}`], (h, p) => refused.push(`${h}:${p}`));
});

afterAll(() => {
  proxy.close();
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `bytes`, reads until the proxy closes: what it answered, and whether it closed. */
function ask(bytes: string | Buffer, timeoutMs = 5000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const c = connect(socket);
    let text = "";
    const timer = setTimeout(() => {
      c.destroy();
      resolve({ text, closed: false });
    }, timeoutMs);
    c.on("data", (d) => (text += d.toString("latin1")));
    c.on("error", () => {});
    c.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    c.write(bytes);
  });
}

const status = (text: string) => text.split("\r\n")[0];

describe("network allow's proxy, asked by a hostile agent", () => {
  test("a host with a NUL, a percent or brackets in it is refused before any rule or lookup sees it", async () => {
    const before = reached.length;
    for (const host of ["127.0.0.1\0.example.com", "127.0.0.1%00.example.com", "[127.0.0.1\0]", "a b.example.com"]) {
      expect(status((await ask(`CONNECT ${host}:${port} HTTP/1.1\r\n\r\n`)).text)).toBe("HTTP/1.1 400 Bad Request");
    }
    expect(status((await ask(`GET http://127.0.0.1%00.example.com:${port}/ HTTP/1.1\r\n\r\n`)).text)).toBe("HTTP/1.1 400 Bad Request");
    expect(reached.length).toBe(before);
  });

  test("a port out of range is a 400, and the proxy serves on", async () => {
    for (const p of ["0", "65536", "99999"]) expect(status((await ask(`CONNECT api.example.com:${p} HTTP/1.1\r\n\r\n`)).text)).toBe("HTTP/1.1 400 Bad Request");
    expect(status((await ask(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`, 500)).text)).toBe("HTTP/1.1 200 Connection Established");
  });

  test("plain http: the upstream is told the host that was checked, never the client's own Host line", async () => {
    const before = reached.length;
    const got = await ask(`GET http://127.0.0.1:${port}/x?y HTTP/1.1\r\nHost: internal.corp\r\nProxy-Authorization: x\r\n\r\n`);
    expect(got.text).toEndWith("ok");
    const sent = reached[before]!;
    expect(sent.split("\r\n").slice(0, 2)).toEqual(["GET /x?y HTTP/1.1", `Host: 127.0.0.1:${port}`]);
    expect(sent).not.toContain("internal.corp");
    expect(sent).not.toContain("Proxy-Authorization");
  });

  test("a refused host gets its 403 and the connection closed, whatever the client goes on sending", async () => {
    const c = connect(socket);
    let text = "";
    c.on("data", (d) => (text += d.toString("latin1")));
    const closed = new Promise<void>((r) => c.on("close", () => r()));
    c.write("CONNECT evil.test:443 HTTP/1.1\r\n\r\n");
    // more after the head: neither read as a second request nor kept
    const more = setInterval(() => c.writable && c.write("GET http://127.0.0.1/ HTTP/1.1\r\n\r\n".repeat(100)), 10);
    await closed;
    clearInterval(more);
    expect(status(text)).toBe("HTTP/1.1 403 Forbidden");
    expect(text).toContain("evil.test:443 is not in sandbox.allowHosts");
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(refused).toContain("evil.test:443");
  });

  test("a head that never ends is cut at its cap with a 431, and the connection closed", async () => {
    const got = await ask(Buffer.alloc(200 * 1024, "a"));
    expect(got.closed).toBe(true);
    expect(status(got.text)).toBe("HTTP/1.1 431 Request Header Fields Too Large");
  });
});
