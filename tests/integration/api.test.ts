import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/sandbox.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

const sb = fileSandbox({ daemon: true });

async function call(method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(`http://troupe${path}`, { method, body, headers, unix: sb.socket });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

describe("the API refuses bad input with a 4xx and an error body, and keeps serving", () => {
  test("malformed JSON", async () => {
    const r = await call("POST", "/v1/conversations", "{not json", { "content-type": "application/json" });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ code: "bad_request", message: "request body is not valid JSON" });
  });

  test("wrong types name the field", async () => {
    const r = await call("POST", "/v1/conversations", JSON.stringify({ question: 42, user: true }));
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toStartWith("question: ");
    const both = await call("POST", "/v1/conversations", JSON.stringify({ question: "q", user: true, to: "x" }));
    expect(both.status).toBe(400);
    expect(both.body.error?.message).toContain("exactly one of");
    const spawn = await call("POST", "/v1/agents", JSON.stringify({ provider: "generic", command: "true", name: "Bad Name!" }));
    expect(spawn.status).toBe(400);
    expect(spawn.body.error?.message).toStartWith("name: ");
  });

  test("unknown routes and wrong methods", async () => {
    expect((await call("GET", "/v1/nope")).status).toBe(404);
    expect((await call("GET", "/v1/nope")).body.error?.code).toBe("not_found");
    const wrong = await call("DELETE", "/v1/agents");
    expect(wrong.status).toBe(405);
    expect((await call("GET", "/v1/agents/ag_missing")).body.error).toEqual({ code: "agent_not_found", message: "no agent 'ag_missing'" });
    expect((await call("GET", "/v1/conversations/x?wait=abc")).status).toBe(400);
  });

  test("huge bodies are refused before they are read whole", async () => {
    const big = new Uint8Array(5 * 1024 * 1024).fill(0x61);
    const r = await call("POST", "/v1/agents", big, { "content-type": "application/json" });
    expect(r.status).toBe(413);
    expect(r.body.error?.code).toBe("payload_too_large");
  });

  test("a caller with a forged token is refused", async () => {
    const r = await call("GET", "/v1/listen", undefined, { authorization: "Bearer forged" });
    expect(r.status).toBe(401);
  });

  test("the daemon still answers, and curl --unix-socket works against it", async () => {
    const h = await call("GET", "/v1/health");
    expect(h.body).toMatchObject({ ok: true, workspace: sb.dir });
    const curl = Bun.which("curl");
    if (!curl) return;
    const out = Bun.spawnSync([curl, "-s", "--unix-socket", sb.socket, "http://troupe/v1/agents"]).stdout.toString();
    expect(JSON.parse(out)).toEqual({ agents: [] });
    const ask = Bun.spawnSync([curl, "-s", "--unix-socket", sb.socket, "-H", "content-type: application/json", "-d", '{"question":"via curl?","user":true}', "http://troupe/v1/conversations"]).stdout.toString();
    expect(JSON.parse(ask).conversation).toMatchObject({ question: "via curl?", toId: "user", status: "pending" });
  });
});

describe("an agent's diff", () => {
  test("is computed by its daemon: committed on its branch, then uncommitted in its worktree", async () => {
    // it stays running with a change left uncommitted (a finished one would be asked to commit it)
    const script = "printf 'one\\n' > made.txt && git add made.txt && git commit -qm made && printf 'two\\n' >> made.txt && touch ready && sleep 600";
    const agent = await sb.json<{ worktree: string }>(["spawn", "--name", "differ", "--command", script, "--json"]);
    await waitFor("differ's change", () => existsSync(join(agent.worktree, "ready")));
    const r = await call("GET", "/v1/agents/differ/diff");
    expect(r.status).toBe(200);
    const lines = r.body.lines as { text: string; kind: string; section?: string; file?: string; new?: number }[];
    const uncommitted = lines.findIndex((l) => l.text.startsWith("── uncommitted in"));
    expect(lines[0]).toMatchObject({ kind: "section", text: expect.stringMatching(/^── committed on troupe\/differ since /) });
    // each line of code with its file and number, as review comments point at them
    expect(lines.slice(0, uncommitted)).toContainEqual({ text: "+one", kind: "add", section: "committed", file: "made.txt", new: 1 });
    expect(lines.slice(uncommitted)).toContainEqual({ text: "+two", kind: "add", section: "uncommitted", file: "made.txt", new: 2 });
    expect((await call("GET", "/v1/agents/nobody/diff")).status).toBe(404);
    await sb.run(["stop", "differ"]);
  });
});
