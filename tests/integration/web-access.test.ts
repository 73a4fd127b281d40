import { afterEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { ROWS } from "../../src/protocol/api/index.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { logIn, startWeb, type Web } from "../support/web.ts";

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

async function setUp(): Promise<{ origin: string; cookie: string; key: string; headers: Record<string, string>; link: string }> {
  sb = new Sandbox();
  const w = await startWeb(sb);
  web = w;
  const login = await logIn(w.firstLogin);
  return { origin: w.origin, ...login, link: w.firstLogin };
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
    for (const path of ["/app/main.js", "/app/page.css", "/elsewhere"]) expect((await fetch(`${origin}${path}`)).status).toBe(401);
    // but the web app manifest, which a browser fetches without cookies and which holds nothing
    expect(await (await fetch(`${origin}/manifest.webmanifest`)).json()).toMatchObject({ name: "troupe", start_url: "/" });
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
    const key = /^\/#k=([\w-]{40,})$/.exec(ok.headers.get("location")!)?.[1];
    expect(key).toBeDefined();
    const sources = await fetch(`${u.origin}/api/sources`, { headers: { cookie: cookie.split(";")[0]!, "x-troupe-key": key! } });
    expect(await sources.json()).toEqual([{ label: label(), title: expect.any(String), remote: false }]);
    // the shell holds no secret: what the cookie alone fetches gives nothing to call the API with
    const shell = await (await fetch(`${u.origin}/`, { headers: { cookie: cookie.split(";")[0]! } })).text();
    expect(shell).not.toContain(key!);
  });

  test("an agent's token is refused on every route, the API's and the page's", async () => {
    const { origin, headers } = await setUp();
    const paths = ["/", "/login", "/app/main.js", "/api/sources", ...ROWS.map(([, e]) => `/api/s/${label()}${e.path.replace(/:[A-Za-z]+/, "x")}`)];
    for (const path of paths) {
      for (const method of ["GET", "POST"]) {
        const res = await fetch(`${origin}${path}`, { method, headers: { ...headers, authorization: "Bearer tok_agent" } });
        expect([path, method, res.status]).toEqual([path, method, 403]);
      }
    }
  });

  test("the cookie alone calls nothing (a server on another port of the host gets it too): every API call needs the login's key; a change, the page's origin", async () => {
    const { origin, cookie, key, headers } = await setUp();
    const spawned = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "sleeper", "--command", "sleep 60", "--json"]);
    // reads too: a GET of the table (the person's questions, messages) is the person's business
    for (const path of ["/api/sources", `/api/s/${label()}/v1/agents`, `/api/s/${label()}/v1/conversations`]) {
      expect((await fetch(`${origin}${path}`, { headers: { cookie } })).status).toBe(401);
      expect((await fetch(`${origin}${path}`, { headers: { cookie, "x-troupe-key": "not-it" } })).status).toBe(401);
    }
    const stop = (h: Record<string, string>) => fetch(`${origin}/api/s/${label()}/v1/agents/sleeper/stop`, { method: "POST", headers: { cookie, ...h } });
    expect((await stop({ origin })).status).toBe(401);
    expect((await stop({ origin: "https://evil.example", "x-troupe-key": key })).status).toBe(403);
    expect((await stop({ "x-troupe-key": key })).status).toBe(403);
    expect((await sb.json<Agent[]>(["ls", "--json"]))[0]!.status).toBe("running");
    const res = await stop({ origin, "x-troupe-key": key });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { agent: Agent }).agent).toMatchObject({ id: spawned.id, status: "stopped" });
    const list = (await (await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers })).json()) as { agents: Agent[] };
    expect(list.agents.map((a) => a.name)).toEqual(["sleeper"]);
    // only the endpoints the page calls: not another path, a method the path has not, an agent's
    // environment (attach), the daemon's stop, an agent's own listen, a source that is not
    for (const [method, path] of [["GET", "/v1/nope"], ["PUT", "/v1/agents"], ["GET", "/v1/agents/x/y/z"], ["POST", "/v1/agents/sleeper/attach"], ["POST", "/v1/daemon/stop"], ["GET", "/v1/listen"], ["GET", "/v1/accounts"]] as const) {
      expect([method, path, (await fetch(`${origin}/api/s/${label()}${path}`, { method, headers })).status]).toEqual([method, path, 404]);
    }
    expect((await fetch(`${origin}/api/s/elsewhere/v1/agents`, { headers })).status).toBe(404);
    expect((await sb.run(["ls"])).code).toBe(0);
  });

  test("a revoked login's event stream ends at once; its next request is refused", async () => {
    const { origin, headers } = await setUp();
    const events = await fetch(`${origin}/api/s/${label()}/v1/events`, { headers });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    const [login] = JSON.parse((await sb.run(["web", "logins", "--json"])).stdout) as { id: string }[];
    expect((await sb.run(["web", "logins", "--revoke", login!.id])).code).toBe(0);
    expect(await Promise.race([ended, Bun.sleep(5000).then(() => false)])).toBe(true);
    expect((await fetch(`${origin}/api/sources`, { headers })).status).toBe(401);
  });

  test("a body over the cap is a 413; a Host it is not reached by is a 421; the daemon is unaffected", async () => {
    const { origin, cookie, headers } = await setUp();
    const big = JSON.stringify({ to: "nobody", text: "x".repeat(5 * 1024 * 1024) });
    const res = await fetch(`${origin}/api/s/${label()}/v1/messages`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: big });
    expect(res.status).toBe(413);
    // a login form's body is one token: a big one, even chunked (no length said), is not read on
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 64; i++) c.enqueue(new TextEncoder().encode("t=".padEnd(64 * 1024, "x")));
        c.close();
      },
    });
    const form = await fetch(`${origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: chunked, redirect: "manual" });
    expect(form.status).toBe(401);
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
    const { origin, headers } = await setUp();
    const second = (await logIn(await web!.login())).headers;
    const out = await sb.run(["web", "logins", "--json"]);
    const logins = JSON.parse(out.stdout) as { id: string }[];
    expect(logins).toHaveLength(2);
    expect((await fetch(`${origin}/api/sources`, { headers: second })).status).toBe(200);
    expect((await sb.run(["web", "logins", "--revoke", logins[0]!.id])).code).toBe(0);
    expect((await fetch(`${origin}/api/sources`, { headers })).status).toBe(401);
    expect((await fetch(`${origin}/api/sources`, { headers: second })).status).toBe(200);
    const wrong = () => fetch(`${origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: "t=guess", redirect: "manual" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // a good link still works while the address waits (behind ssh -L every client is 127.0.0.1)
    const link = new URL(await web!.login());
    const good = await fetch(`${origin}/login`, { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body: `t=${link.searchParams.get("t")}`, redirect: "manual" });
    expect(good.status).toBe(303);
    expect((await sb.run(["web", "logins", "--revoke", "dev_none"])).code).not.toBe(0);
  });

  test("1,000 idle connections: the page and the daemon still answer", async () => {
    const { origin, headers } = await setUp();
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
      const res = await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers });
      expect(res.status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(5000);
      expect((await sb.run(["ls"])).code).toBe(0);
    } finally {
      for (const s of idle) s.destroy();
    }
  }, 60_000);

  test("slow clients that never finish their request hold up no one: the page, its event stream and the daemon answer meanwhile", async () => {
    const { origin, headers } = await setUp();
    const port = Number(new URL(origin).port);
    const slow: Socket[] = [];
    for (let i = 0; i < 50; i++) {
      const s = connect(port, "127.0.0.1", () => s.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100000\r\n\r\nt=`));
      s.on("error", () => {});
      slow.push(s);
    }
    try {
      const events = await fetch(`${origin}/api/s/${label()}/v1/events`, { headers });
      expect(events.status).toBe(200);
      expect(events.headers.get("content-type")).toContain("text/event-stream");
      await events.body?.cancel();
      expect((await fetch(`${origin}/api/s/${label()}/v1/agents`, { headers })).status).toBe(200);
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
    const everywhere = await sb.run(["web", "run", "--host", "0.0.0.0"]);
    expect(everywhere.code).not.toBe(0);
    expect(everywhere.stderr).toContain("give --public-url");
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
