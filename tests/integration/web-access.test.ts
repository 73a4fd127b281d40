import { afterEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { ROWS } from "../../src/protocol/api/index.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { csrfOf, logIn, startWeb, type Web } from "../support/web.ts";

/**
 * `troupe web`'s access rules (docs/web.md, "Access"), against the compiled binary, a real
 * daemon and real agents, as a careless script and a hostile page would try them: each rule is
 * a request that would get through without it.
 */

let sb: Sandbox;
let web: Web | null = null;
afterEach(async () => {
  await web?.stop();
  web = null;
  await sb?.close();
});

async function setUp(): Promise<{ origin: string; cookie: string; csrf: string; link: string }> {
  sb = new Sandbox();
  const w = await startWeb(sb);
  web = w;
  const cookie = await logIn(w.firstLogin);
  return { origin: w.origin, cookie, csrf: await csrfOf(w.origin, cookie), link: w.firstLogin };
}

const label = () => sb.dir.split("/").pop()!;

describe("troupe web: access", () => {
  test("without a login only the login page is served (no script on it); a forged cookie is refused", async () => {
    const { origin } = await setUp();
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain("login link");
    expect(html).not.toContain("<script");
    expect(home.headers.get("content-security-policy")).toContain("default-src 'none'");
    for (const path of ["/app/main.js", "/app/page.css", "/manifest.webmanifest", "/elsewhere"]) expect((await fetch(`${origin}${path}`)).status).toBe(401);
    for (const path of ["/api/sources", `/api/s/${label()}/v1/agents`]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const forged = await fetch(`${origin}/api/sources`, { headers: { cookie: "troupe_login=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    expect(forged.status).toBe(401);
  });

  test("a login link works once, from the page's own origin, and becomes an HttpOnly SameSite=Strict cookie", async () => {
    sb = new Sandbox();
    const w = await startWeb(sb);
    web = w;
    const u = new URL(w.firstLogin);
    const post = (origin: string) => fetch(`${u.origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: `t=${u.searchParams.get("t")}`, redirect: "manual" });
    // the page a link opens does not spend the token: only its button's post does
    expect((await fetch(w.firstLogin)).status).toBe(200);
    expect((await post("https://evil.example")).status).toBe(403);
    const ok = await post(u.origin);
    expect(ok.status).toBe(303);
    const cookie = ok.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^troupe_login=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    // replayed: refused
    expect((await post(u.origin)).status).toBe(401);
    const sources = await fetch(`${u.origin}/api/sources`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(await sources.json()).toEqual([{ label: label(), title: expect.any(String), remote: false }]);
  });

  test("an agent's token is refused on every route, the API's and the page's", async () => {
    const { origin, cookie } = await setUp();
    const paths = ["/", "/login", "/app/main.js", "/api/sources", ...ROWS.map(([, e]) => `/api/s/${label()}${e.path.replace(/:[A-Za-z]+/, "x")}`)];
    for (const path of paths) {
      for (const method of ["GET", "POST"]) {
        const res = await fetch(`${origin}${path}`, { method, headers: { cookie, origin, authorization: "Bearer tok_agent" } });
        expect([path, method, res.status]).toEqual([path, method, 403]);
      }
    }
  });

  test("a change needs the page's origin and its login's CSRF token; the API is only the table's endpoints", async () => {
    const { origin, cookie, csrf } = await setUp();
    const spawned = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "sleeper", "--command", "sleep 60", "--json"]);
    const stop = (headers: Record<string, string>) => fetch(`${origin}/api/s/${label()}/v1/agents/sleeper/stop`, { method: "POST", headers: { cookie, ...headers } });
    expect((await stop({ origin })).status).toBe(403);
    expect((await stop({ origin: "https://evil.example", "x-troupe-csrf": csrf })).status).toBe(403);
    expect((await stop({ "x-troupe-csrf": csrf })).status).toBe(403);
    expect((await stop({ origin, "x-troupe-csrf": "not-it" })).status).toBe(403);
    expect((await sb.json<Agent[]>(["ls", "--json"]))[0]!.status).toBe("running");
    const res = await stop({ origin, "x-troupe-csrf": csrf });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { agent: Agent }).agent).toMatchObject({ id: spawned.id, status: "stopped" });
    // reads go through as the person's
    const list = (await (await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers: { cookie } })).json()) as { agents: Agent[] };
    expect(list.agents.map((a) => a.name)).toEqual(["sleeper"]);
    // nothing but the table: another path, a method the path has not, a path longer than a row's, a source that is not
    for (const [method, path] of [["GET", "/v1/nope"], ["PUT", "/v1/agents"], ["DELETE", "/v1/health"], ["GET", "/v1/agents/x/y/z"]] as const) {
      expect((await fetch(`${origin}/api/s/${label()}${path}`, { method, headers: { cookie, origin, "x-troupe-csrf": csrf } })).status).toBe(404);
    }
    expect((await fetch(`${origin}/api/s/elsewhere/v1/agents`, { headers: { cookie } })).status).toBe(404);
  });

  test("a body over the cap is a 413; a Host it is not reached by is a 421; the daemon is unaffected", async () => {
    const { origin, cookie, csrf } = await setUp();
    const big = JSON.stringify({ to: "nobody", text: "x".repeat(5 * 1024 * 1024) });
    const res = await fetch(`${origin}/api/s/${label()}/v1/messages`, { method: "POST", headers: { cookie, origin, "x-troupe-csrf": csrf, "content-type": "application/json" }, body: big });
    expect(res.status).toBe(413);
    // a DNS-rebinding page: its Host is its own name
    const port = new URL(origin).port;
    const rebound = await new Promise<string>((resolve) => {
      const s = connect(Number(port), "127.0.0.1", () => s.write(`GET /api/sources HTTP/1.1\r\nHost: evil.example:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`));
      let got = "";
      s.on("data", (d) => (got += d));
      s.on("close", () => resolve(got));
    });
    expect(rebound.split("\r\n")[0]).toBe("HTTP/1.1 421 Misdirected Request");
    expect((await sb.run(["ls"])).code).toBe(0);
  });

  test("failed logins are rate-limited; a revoked login is refused at its next request; a second device logs in with troupe web login", async () => {
    const { origin, cookie } = await setUp();
    const second = await logIn(await web!.login());
    const out = await sb.run(["web", "logins", "--json"]);
    const logins = JSON.parse(out.stdout) as { id: string }[];
    expect(logins).toHaveLength(2);
    expect((await fetch(`${origin}/api/sources`, { headers: { cookie: second } })).status).toBe(200);
    expect((await sb.run(["web", "logins", "--revoke", logins[0]!.id])).code).toBe(0);
    expect((await fetch(`${origin}/api/sources`, { headers: { cookie } })).status).toBe(401);
    expect((await fetch(`${origin}/api/sources`, { headers: { cookie: second } })).status).toBe(200);
    const wrong = () => fetch(`${origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "t=guess", redirect: "manual" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // a good link is refused too while the address waits
    const link = new URL(await web!.login());
    const good = await fetch(`${origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: `t=${link.searchParams.get("t")}`, redirect: "manual" });
    expect(good.status).toBe(429);
    expect((await sb.run(["web", "logins", "--revoke", "dev_none"])).code).not.toBe(0);
  });

  test("1,000 idle connections: the page and the daemon still answer", async () => {
    const { origin, cookie } = await setUp();
    const port = Number(new URL(origin).port);
    const idle: Socket[] = [];
    await Promise.all(
      Array.from({ length: 1000 }, () => new Promise<void>((resolve) => {
        const s = connect(port, "127.0.0.1", () => resolve());
        s.on("error", () => resolve());
        idle.push(s);
      })),
    );
    try {
      const t0 = performance.now();
      const res = await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(5000);
      expect((await sb.run(["ls"])).code).toBe(0);
    } finally {
      for (const s of idle) s.destroy();
    }
  }, 60_000);

  test("slow clients that never finish their request hold up no one: the page, its event stream and the daemon answer meanwhile", async () => {
    const { origin, cookie } = await setUp();
    const port = Number(new URL(origin).port);
    const slow: Socket[] = [];
    for (let i = 0; i < 50; i++) {
      const s = connect(port, "127.0.0.1", () => s.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100000\r\n\r\nt=`));
      s.on("error", () => {});
      slow.push(s);
    }
    try {
      const events = await fetch(`${origin}/api/s/${label()}/v1/events`, { headers: { cookie } });
      expect(events.status).toBe(200);
      expect(events.headers.get("content-type")).toContain("text/event-stream");
      await events.body?.cancel();
      expect((await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers: { cookie } })).status).toBe(200);
      expect((await sb.run(["ls"])).code).toBe(0);
    } finally {
      for (const s of slow) s.destroy();
    }
  });

  test("web start twice says where it runs and prints a new link; status and stop; another --public-url is checked", async () => {
    const { origin } = await setUp();
    const again = await sb.run(["web", "start", "--port", "0"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`troupe web already runs at ${origin}`);
    expect(again.stdout).toMatch(/log in \(once, within 10 minutes\): http:\/\/127\.0\.0\.1:\d+\/login\?t=/);
    const status = JSON.parse((await sb.run(["web", "status", "--json"])).stdout) as { origin: string; logins: number };
    expect(status).toMatchObject({ origin, logins: 1 });
    const bad = await sb.run(["web", "start", "--public-url", "ftp://x"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.split("\n")[0]).toBe("troupe: --public-url ftp://x must be http:// or https://");
    expect((await sb.run(["web", "stop"])).stdout).toContain("stopped troupe web");
    web = null;
    await waitFor("the page to close", async () => fetch(`${origin}/`).then(() => false, () => true));
    const gone = await sb.run(["web", "status"]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain("troupe web is not running");
  });
});
