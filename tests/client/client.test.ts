import { describe, expect, test } from "bun:test";
import { TroupeClient } from "../../src/client/client.ts";
import { NotDelivered, type Exchange, type Transport } from "../../src/client/transport.ts";
import { VERSION_HEADER } from "../../src/self.ts";

/** A transport that records each exchange and answers from a script: the seam another source plugs into. */
class Scripted implements Transport {
  readonly address = "scripted";
  readonly sent: { path: string; ex: Exchange }[] = [];
  started: string[] = [];
  constructor(private readonly answer: (path: string, ex: Exchange) => Response | Error) {}
  async send(path: string, ex: Exchange): Promise<Response> {
    this.sent.push({ path, ex });
    const r = this.answer(path, ex);
    if (r instanceof Error) throw r;
    return r;
  }
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const conversation = { id: "cv_1", fromId: "user", fromName: "user", toId: "ag_1", toName: "otter", question: "q", answer: "yes", answeredBy: "user", status: "answered" as const, taskId: null, phaseId: null, createdAt: 1, expiresAt: null, answeredAt: 2 };

describe("the typed client, derived from the API table", () => {
  test("a method sends its row's method and path, its parameter encoded, its body as JSON, with the token and the build", async () => {
    const t = new Scripted(() => json({ conversation }));
    const client = new TroupeClient({ transport: t, token: "tok" });
    expect(await client.answer("cv/1", { answer: "yes" })).toEqual(conversation);
    const { path, ex } = t.sent[0]!;
    expect([ex.method, path, ex.body]).toEqual(["POST", "/v1/conversations/cv%2F1/answer", '{"answer":"yes"}']);
    expect(ex.headers.authorization).toBe("Bearer tok");
    expect(ex.headers[VERSION_HEADER]).toBeString();
  });

  test("a query is written from the row's declaration; a body-less POST sends no body", async () => {
    const t = new Scripted((path) => (path.includes("/output") ? json({ chunks: [] }) : json({ ok: true })));
    const client = new TroupeClient({ transport: t });
    await client.output("otter", { after: 5, limit: 10 });
    await client.remove("otter", { force: true });
    await client.stopDaemon();
    expect(t.sent.map(({ path, ex }) => `${ex.method} ${path} ${ex.body ?? "-"}`)).toEqual(["GET /v1/agents/otter/output?after=5&limit=10 -", "DELETE /v1/agents/otter?force -", "POST /v1/daemon/stop -"]);
  });

  test("a reply that does not match its row's schema is an error naming the path", async () => {
    const client = new TroupeClient({ transport: new Scripted(() => json({ conversation: { id: 1 } })) });
    await expect(client.conversation("cv_1")).rejects.toThrow("daemon reply did not match /v1/conversations/cv_1");
  });

  test("the daemon's refusal comes back as its error code and message", async () => {
    const client = new TroupeClient({ transport: new Scripted(() => json({ error: { code: "forbidden", message: "x may not stop y" } }, 403)) });
    await expect(client.stop("y")).rejects.toMatchObject({ code: "forbidden", message: "x may not stop y" });
  });

  test("a request that reached no daemon is sent again once the transport has started one; without start, it is daemon_unavailable", async () => {
    let up = false;
    const t = new Scripted(() => (up ? json({ ok: true, pid: 1, version: "v", workspace: "/w", startedAt: 1 }) : new NotDelivered("ECONNREFUSED")));
    const client = new TroupeClient({ transport: t });
    await expect(client.health()).rejects.toMatchObject({ code: "daemon_unavailable", message: "no daemon answers on scripted" });
    (t as Transport).start = async (why) => {
      t.started.push(why);
      up = true;
    };
    expect((await client.health()).pid).toBe(1);
    expect(t.started).toEqual(["absent"]);
  });
});
