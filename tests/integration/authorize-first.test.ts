import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { ROWS, type Endpoint } from "../../src/protocol/api/index.ts";
import { MatrixRun } from "../support/identity-matrix.ts";
import { Sandbox } from "../support/sandbox.ts";

/**
 * Authorization comes before the body is read or validated, on every route: a caller the row's
 * rule refuses gets 403 whatever it sent, and learns nothing about what was wrong with its body.
 * The routes are read from the API table, so a new one is held to it without editing this.
 */
let sb: Sandbox;
let m: MatrixRun;
let victim: { agent: { id: string; name: string }; token: string };
let stranger: { agent: { id: string; name: string }; token: string };
let conversationId: string;
let permissionId: string;

beforeAll(async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  m = new MatrixRun(sb);
  victim = await m.spawnAs(null, "live");
  stranger = await m.spawnAs(null, "live");
  const asked = await m.api(null, "POST", "/v1/conversations", { question: "ready?", to: victim.agent.name });
  conversationId = (asked.json as { conversation: { id: string } }).conversation.id;
  const filed = await m.api(victim.token, "POST", "/v1/permissions", { toolName: "Bash", input: { command: "ls" }, toolUseId: "toolu_first" });
  permissionId = (filed.json as { request: { id: string } }).request.id;
});
afterAll(async () => {
  await sb.close();
});

/** The row's path with its parameter filled by something that exists (the rule decides on it). */
function pathOf(e: Endpoint): string {
  const value = e.target === "agent" ? victim.agent.name : e.target === "conversation" ? conversationId : e.target === "permission" ? permissionId : "x";
  return e.path.replace(/:[A-Za-z]+/, encodeURIComponent(value));
}

/** Who the row refuses: the person for an agent's own calls, else an agent of no kin to the target. */
function refused(e: Endpoint): string | null | undefined {
  if (e.rule === "agent") return null;
  if (e.rule === "anyone") return undefined;
  return stranger.token;
}

/** A raw request with `body` as given (not JSON-encoded). */
async function send(token: string | null, method: string, path: string, body: string): Promise<number> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`http://troupe${path}`, { unix: sb.socket, method, headers, body });
  await res.text();
  return res.status;
}

describe("authorization before validation", () => {
  test("an agent posting a malformed decision gets 403, not 400 (docs: only the person decides)", async () => {
    const path = `/v1/permissions/${permissionId}/decide`;
    expect(await send(victim.token, "POST", path, '{"behavior": "maybe"}')).toBe(403);
    expect(await send(stranger.token, "POST", path, "{not json")).toBe(403);
    // the person's own malformed decision is still told what is wrong
    expect(await send(null, "POST", path, '{"behavior": "maybe"}')).toBe(400);
    // a large body refused unread: the whole reply still reaches the caller (no reset)
    expect(await send(stranger.token, "POST", path, JSON.stringify({ behavior: "deny", reason: "x".repeat(3 * 1024 * 1024) }))).toBe(403);
  });

  test("a route no agent may call refuses an agent 403 whatever its target names, one that does not exist included (never 404 first)", async () => {
    const rows = ROWS.filter(([, e]) => e.rule === "person" && e.target !== undefined);
    expect(rows.map(([name]) => name)).toContain("decidePermission");
    const got: Record<string, number> = {};
    for (const [name, e] of rows) {
      const res = await fetch(`http://troupe${e.path.replace(/:[A-Za-z]+/, "nonexistent-x")}`, { unix: sb.socket, method: e.method, headers: { authorization: `Bearer ${victim.token}`, "content-type": "application/json" }, ...(e.method !== "GET" && { body: "{}" }) });
      await res.text();
      got[name] = res.status;
    }
    expect(got).toEqual(Object.fromEntries(rows.map(([name]) => [name, 403])));
    const res = await fetch(`http://troupe/v1/permissions/pr_nonexistent/decide`, { unix: sb.socket, method: "POST", headers: { authorization: `Bearer ${stranger.token}`, "content-type": "application/json" }, body: '{"behavior":"allow"}' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`${stranger.agent.name} may not decide a permission request of pr_nonexistent: only the person may`);
  });

  test("every route with a body refuses the caller its rule refuses before reading that body", async () => {
    const rows = ROWS.filter(([, e]) => e.body !== undefined && refused(e) !== undefined);
    expect(rows.length).toBeGreaterThan(10);
    const got: Record<string, number> = {};
    for (const [name, e] of rows) {
      got[name] = await send(refused(e)!, e.method, pathOf(e), "{not json");
    }
    expect(got).toEqual(Object.fromEntries(rows.map(([name]) => [name, 403])));
  });

  test("a refused caller's body is not waited for: 403 at once though most of it has not come", async () => {
    // the old order read the body first: this one stalls, so it got 408 after 10 s
    const size = 1024 * 1024;
    const reply = await new Promise<string>((resolve) => {
      let got = "";
      const c = connect(sb.socket);
      const done = () => (c.destroy(), resolve(got));
      const timer = setTimeout(done, 3000);
      c.on("data", (d) => {
        got += d.toString();
        if (got.includes("\r\n\r\n") && got.includes("}")) (clearTimeout(timer), done());
      });
      c.on("close", () => (clearTimeout(timer), done()));
      c.write(`POST /v1/permissions/${permissionId}/decide HTTP/1.1\r\nHost: troupe\r\nAuthorization: Bearer ${stranger.token}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
      c.write("x".repeat(16 * 1024));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 403/);
  });
});
