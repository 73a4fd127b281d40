/**
 * Permission requests through the CLI, against a live daemon: the agent side is troupe's MCP tool
 * `permission` (the SDK's real client on `dist/troupe mcp`, with an agent's identity, as Claude
 * Code calls it under `ask`); the person's side is `troupe permissions`, `allow`, `deny`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { McpSession, identityAgent } from "../support/mcp-client.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";

let sb: Sandbox;
const sessions: McpSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await sb?.close();
});

function sandbox(): Sandbox {
  sb = new Sandbox();
  // the user's config is the sandbox's own: a test never reads the real ~/.config/troupe
  return sb;
}

async function asAgent(name: string) {
  const me = await identityAgent(sb, name);
  const mcp = await McpSession.open(sb, me.env);
  sessions.push(mcp);
  const ask = (toolUseId: string, command: string) => mcp.call("permission", { tool_name: "Bash", input: { command }, tool_use_id: toolUseId }, 120_000).then((r) => JSON.parse(r.text) as { behavior: string; message?: string });
  return { ...me, mcp, ask };
}

const requests = (all = false) => sb.json<PermissionRequest[]>(["permissions", ...(all ? ["--all"] : []), "--json"]);
const pending = () => waitFor("a pending request", async () => (await requests())[0]);

describe("troupe permissions / allow / deny", () => {
  test("deciding twice is refused with why; an agent's token is refused, its own request included", async () => {
    sandbox();
    const a = await asAgent("asker");
    const call = a.ask("toolu_1", "make deploy");
    const r = await pending();
    expect((await sb.run(["permissions"])).stdout).toContain(`${r.id}  asker  Bash  pending`);
    // the agent itself (its CLI with its token) may not decide
    for (const args of [["allow", r.id], ["deny", r.id, "--reason", "no"]]) {
      const refused = await sb.run(args, { env: { TROUPE_AGENT_TOKEN: a.env.TROUPE_AGENT_TOKEN } });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("only the person may");
    }
    expect((await requests())[0]!.status).toBe("pending");
    expect(await sb.run(["deny", r.id, "--reason", "not on a Friday"])).toMatchObject({ code: 0 });
    expect(await call).toEqual({ behavior: "deny", message: "not on a Friday" });
    const twice = await sb.run(["allow", r.id]);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr.trim()).toBe(`troupe: ${r.id} was already denied (by the person)`);
    // bad input: one line saying what is missing (then the usage), no stack
    const noReason = await sb.run(["deny", r.id]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr.split("\n")[0]).toBe("troupe: give --reason TEXT: the agent reads it and goes on");
    expect(noReason.stderr).not.toContain("    at ");
    const unknown = await sb.run(["allow", "perm_999"]);
    expect(unknown.stderr.trim()).toBe("troupe: no permission request 'perm_999'");
  }, 60_000);

  test("an agent whose session ends: its pending requests are cancelled, the tool told, and deciding one is a conflict", async () => {
    sandbox();
    const a = await asAgent("leaver");
    const call = a.ask("toolu_1", "make deploy");
    const r = await pending();
    expect((await sb.json<Agent[]>(["ls", "--json"]))[0]).toMatchObject({ name: "leaver", pendingPermissions: 1 });
    await a.release();
    expect(await call).toEqual({ behavior: "deny", message: "cancelled: the session that asked has ended" });
    const after = (await requests(true))[0]!;
    expect(after).toMatchObject({ id: r.id, status: "cancelled", decidedBy: "ended" });
    expect((await sb.json<Agent[]>(["ls", "--json"]))[0]).toMatchObject({ status: "done", pendingPermissions: 0 });
    const late = await sb.run(["allow", r.id]);
    expect(late.code).not.toBe(0);
    expect(late.stderr).toContain("cancelled");
  }, 60_000);

  test("kill -9 of the daemon while the tool waits: the request is there after the restart, and allowing it answers the waiting tool", async () => {
    sandbox();
    const a = await asAgent("survivor");
    const call = a.ask("toolu_1", "make deploy");
    const r = await pending();
    await sb.killDaemon();
    const again = await pending();
    expect(again).toMatchObject({ id: r.id, status: "pending" });
    expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
    expect(await call).toMatchObject({ behavior: "allow" });
    expect(await requests(true)).toHaveLength(1);
  }, 60_000);

  test("the inactivity limit does not stop an agent waiting for the person", async () => {
    sandbox();
    // a few seconds: the waiting agent's MCP server (troupe mcp, a cold process) must ask within them
    writeConfig({ lifecycle: { idleTimeoutMinutes: 5 / 60 } });
    const waiting = await asAgent("patient");
    const call = waiting.ask("toolu_1", "make deploy");
    await pending();
    // a second agent, silent and waiting for nothing, is stopped by the same limit
    await identityAgent(sb, "silent");
    await waitFor("the silent agent stopped by the limit", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "silent" && x.status === "failed"), 30_000);
    expect((await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "patient")).toMatchObject({ status: "running", pendingPermissions: 1 });
    await sb.run(["allow", (await requests())[0]!.id]);
    expect(await call).toMatchObject({ behavior: "allow" });
  }, 60_000);

  test("rules from every layer: spawn flags, the workspace config, the user's config, an initiative; a deny wins", async () => {
    sandbox();
    writeConfig({ permissions: { deny: ["Bash(rm *)"] } });
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "troupe"), { recursive: true });
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "troupe", "config.json"), JSON.stringify({ permissions: { allow: ["Bash(ls*)", "Bash(rm *)"] }, sandbox: { mode: "off" } }));
    const a = await asAgent("ruled");
    expect(await a.ask("toolu_1", "ls -la")).toMatchObject({ behavior: "allow" });
    expect(await a.ask("toolu_2", "rm -rf /")).toEqual({ behavior: "deny", message: "denied by the rule Bash(rm *)" });
    const all = await requests(true);
    expect(all.map((x) => [x.status, x.decidedBy, x.rule])).toEqual([
      ["allowed", "rule", "Bash(ls*)"],
      ["denied", "rule", "Bash(rm *)"],
    ]);

    // an initiative's policy reaches the agents it starts (a mode run here)
    await sb.run(["initiative", "new", "perms", "--goal", "g", "--deny", "Bash(make *)"]);
    const file = join(sb.runtime, ".id-planner");
    const cmd = `printf '%s' "$TROUPE_AGENT_TOKEN" > ${file}.tmp && mv ${file}.tmp ${file}; sleep 60`;
    await sb.json(["plan", "perms", "--command", cmd, "--json"]);
    const token = await waitFor("the planner's token", () => Bun.file(file).text().catch(() => undefined));
    const planner = await McpSession.open(sb, { TROUPE_AGENT_TOKEN: token });
    sessions.push(planner);
    const denied = JSON.parse((await planner.call("permission", { tool_name: "Bash", input: { command: "make deploy" }, tool_use_id: "toolu_p" })).text) as { behavior: string };
    expect(denied).toMatchObject({ behavior: "deny" });
    // --allow on a spawn, and --permissions ask refused for a CLI that cannot route it
    const refused = await sb.run(["spawn", "--provider", "codex", "--prompt", "x", "--permissions", "ask"], { env: { PATH: `${join(import.meta.dir, "../../node_modules/.bin")}:${process.env.PATH}` } });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("Codex");
  }, 90_000);
});

function writeConfig(config: unknown): void {
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify(config));
}
