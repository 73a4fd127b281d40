/**
 * troupe's MCP tool `permission` (Claude Code's --permission-prompt-tool under `ask`), called by
 * the SDK's real client against `dist/troupe mcp` with an agent's identity, with the arguments
 * the real CLI sends (tests/fixtures/claude/permission-prompt.json, recorded by
 * scripts/record-permission-fixture.ts), answered through the CLI as the person.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { McpSession, identityAgent } from "../support/mcp-client.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";

let sb: Sandbox;
const sessions: McpSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await sb?.close();
});

interface Recorded {
  calls: { arguments: { tool_name: string; input: Record<string, unknown>; tool_use_id: string } }[];
}
const recorded = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/claude/permission-prompt.json"), "utf8")) as Recorded;
const sent = recorded.calls[0]!.arguments;

async function agentSession(name: string): Promise<McpSession> {
  const me = await identityAgent(sb, name);
  const s = await McpSession.open(sb, me.env);
  sessions.push(s);
  return s;
}

const pending = () => waitFor("a pending request", async () => (await sb.json<PermissionRequest[]>(["permissions", "--json"]))[0]);
const answer = (r: { text: string }) => JSON.parse(r.text) as { behavior: string; updatedInput?: Record<string, unknown>; message?: string };

describe("the permission tool", () => {
  test("answers as Claude Code expects: allow with the original input, once the person allows", async () => {
    sb = new Sandbox();
    const mcp = await agentSession("asker");
    const call = mcp.call("permission", sent);
    const r = await pending();
    expect(r).toMatchObject({ agentName: "asker", toolName: sent.tool_name, input: sent.input, kind: "tool", status: "pending" });
    expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
    const got = await call;
    expect(got.isError).toBe(false);
    expect(answer(got)).toEqual({ behavior: "allow", updatedInput: sent.input });
  });

  test("deny: the reason is the message; allow --always: the same call is then answered by the rule, without the person", async () => {
    sb = new Sandbox();
    const mcp = await agentSession("asker");
    const first = mcp.call("permission", { ...sent, tool_use_id: "toolu_a" });
    const r1 = await pending();
    expect(await sb.run(["deny", r1.id, "--reason", "not now"])).toMatchObject({ code: 0 });
    expect(answer(await first)).toEqual({ behavior: "deny", message: "not now" });

    const second = mcp.call("permission", { ...sent, tool_use_id: "toolu_b" });
    const r2 = await pending();
    const allowed = await sb.run(["allow", r2.id, "--always"]);
    expect(allowed.stdout).toContain(`Bash(${sent.input.command})`);
    expect(answer(await second)).toMatchObject({ behavior: "allow" });

    const third = await mcp.call("permission", { ...sent, tool_use_id: "toolu_c" });
    expect(answer(third)).toEqual({ behavior: "allow", updatedInput: sent.input });
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((x) => [x.status, x.decidedBy, x.rule])).toEqual([
      ["denied", "person", null],
      ["allowed", "person", `Bash(${sent.input.command})`],
      ["allowed", "rule", `Bash(${sent.input.command})`],
    ]);
  });

  test("the same tool_use_id filed again is the same request (a restart between filing and answering loses nothing)", async () => {
    sb = new Sandbox();
    const mcp = await agentSession("asker");
    const a = mcp.call("permission", sent);
    const r = await pending();
    const b = mcp.call("permission", sent);
    await sb.run(["allow", r.id]);
    // had the second call filed a request of its own, it would still wait for the person
    expect(answer(await a)).toMatchObject({ behavior: "allow" });
    expect(answer(await b)).toMatchObject({ behavior: "allow" });
    expect((await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).length).toBe(1);
  });

  test("the person's own troupe mcp cannot file one", async () => {
    sb = new Sandbox();
    const mcp = await McpSession.open(sb);
    sessions.push(mcp);
    const r = await mcp.call("permission", sent);
    expect(answer(r).behavior).toBe("deny");
    expect(answer(r).message).toContain("only an agent may");
  });
});
