import { expect, test } from "bun:test";
import { connect } from "node:net";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BIN, BIN_RUNTIME, Sandbox, type RunResult } from "../support/sandbox.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

const sb = fileSandbox({ daemon: true });

/** Writes raw bytes to the daemon's socket; resolves with all it answered when it closes (or at `waitMs`). */
function raw(data: string, waitMs: number): Promise<{ reply: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const s = connect(sb.socket);
    const t0 = Date.now();
    let reply = "";
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ reply, closedAfterMs: null });
    }, waitMs);
    s.on("data", (d) => (reply += d));
    s.on("close", () => {
      clearTimeout(timer);
      resolve({ reply, closedAfterMs: Date.now() - t0 });
    });
    s.on("error", () => {});
    s.write(data);
  });
}

const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)) as { error?: { code: string } };

test("a request without a Host header is served (HTTP/1.0 allows it)", async () => {
  const { reply } = await raw("GET /v1/health HTTP/1.0\r\n\r\n", 5_000);
  // Bun answers HTTP/1.1, Deno in the request's version: either is HTTP
  expect(reply).toMatch(/^HTTP\/1\.[01] 200/);
  expect(bodyOf(reply)).toMatchObject({ ok: true, workspace: sb.dir });
});

test("a Host header that is no valid authority (a port out of range, a broken IPv6 address) is served, not a 500", async () => {
  for (const host of ["troupe:99999", "[::1"]) {
    const { reply } = await raw(`GET /v1/agents/nobody HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 5_000);
    expect(reply).toStartWith("HTTP/1.1 404");
    expect(bodyOf(reply).error?.code).toBe("agent_not_found");
  }
});

test("a request body that stops arriving is answered 408 and closed, while an event stream stays open", async () => {
  const abort = new AbortController();
  const events = await fetch("http://troupe/v1/events?output=none", { unix: sb.socket, signal: abort.signal });
  const reader = events.body!.getReader();
  await reader.read(); // ": connected"
  const { reply, closedAfterMs } = await raw("POST /v1/conversations HTTP/1.1\r\nHost: troupe\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"que", 20_000);
  expect(reply).toStartWith("HTTP/1.1 408");
  expect(bodyOf(reply).error?.code).toBe("timeout");
  // Deno.serve keeps a connection whose body never came until the client goes, `connection: close`
  // or not: it has no way to close one connection (the 408 is answered all the same)
  if (BIN_RUNTIME === "bun") expect(closedAfterMs).not.toBeNull();
  // the stream outlived the body timeout: the next event still arrives on it
  const asked = await fetch("http://troupe/v1/conversations", { unix: sb.socket, method: "POST", body: JSON.stringify({ question: "still there?", user: true }) });
  expect(asked.status).toBe(201);
  const next = new TextDecoder().decode((await reader.read()).value);
  expect(next).toContain("conversation:created");
  abort.abort();
}, 30_000);

test("a method no route has gets a JSON 405; one Bun cannot parse closes at once, and the daemon keeps serving", async () => {
  const known = await raw("PROPFIND /v1/health HTTP/1.1\r\nHost: troupe\r\nConnection: close\r\n\r\n", 3_000);
  expect(known.reply).toStartWith("HTTP/1.1 405");
  expect(bodyOf(known.reply).error?.code).toBe("method_not_allowed");
  const custom = await raw("BREW /v1/health HTTP/1.1\r\nHost: troupe\r\nConnection: close\r\n\r\n", 3_000);
  // Bun.serve drops a method outside its table before any handler runs (oven-sh/bun#6556); Deno's
  // server hands it on, and the route answers it as any other
  if (BIN_RUNTIME === "bun") expect(custom.closedAfterMs).not.toBeNull();
  else expect(bodyOf(custom.reply).error?.code).toBe("method_not_allowed");
  expect((await sb.run(["daemon", "status"])).code).toBe(0);
});

test.skipIf(process.getuid?.() !== 0)("a runtime folder another user created first is refused with a warning, and a safe one serves", async () => {
  const tmp = mkdtempSync("/tmp/tr-tmp-");
  const home = join(tmp, "home");
  mkdirSync(home);
  const planted = join(tmp, `troupe-${process.getuid!()}`);
  mkdirSync(planted);
  chownSync(planted, 65534, 65534);
  chmodSync(planted, 0o777);
  const ws = new Sandbox();
  const env: Record<string, string> = { TMPDIR: tmp, HOME: home };
  const run = async (args: string[]): Promise<RunResult> => {
    const base = Object.fromEntries(Object.entries(ws.env).filter(([k]) => k !== "TROUPE_SOCKET" && k !== "XDG_RUNTIME_DIR"));
    const p = Bun.spawn([BIN, ...args], { cwd: ws.dir, env: { ...base, ...env }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  };
  try {
    const r = await run(["daemon", "start"]);
    expect(r.stderr).toBe(`troupe: not using ${planted} for sockets (${planted} belongs to uid 65534, not to you (uid 0)); using ${home}/.troupe-run\n`);
    expect(r.code).toBe(0);
    const status = JSON.parse((await run(["daemon", "status", "--json"])).stdout);
    expect(status.socket).toStartWith(`${home}/.troupe-run/`);
    expect(existsSync(status.socket)).toBe(true);
  } finally {
    await run(["daemon", "stop"]);
    rmSync(ws.dir, { recursive: true, force: true });
    rmSync(ws.runtime, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  }
});
