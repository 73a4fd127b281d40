/**
 * The real Claude Code CLI under `--permissions ask`, offline (a scripted Messages API plays the
 * model): each Bash call its rules do not allow goes to troupe's MCP tool `permission`, waits for
 * the person (`troupe allow` / `troupe deny`), and the answer reaches the CLI; a daemon killed
 * while a request waits loses nothing. The dashboard's side is tests/e2e of the dashboard.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { bash, lastToolResult, text, turnIndex } from "../support/fake-anthropic.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";

const claude = useClaudeTroupe();
const { server, scripts } = claude;
let sb: Sandbox;

function claudeSandbox(): Sandbox {
  sb = claude.sandbox();
  // no IS_SANDBOX: under ask nothing is skipped, so Claude Code runs as root without it
  delete sb.env.IS_SANDBOX;
  return sb;
}

/** Spawned under ask, its end signalled through an allow rule (the rule answers without the person). */
const spawnAsk = (name: string, prompt: string) =>
  sb.json<Agent>(["spawn", "--provider", "claude", "--name", name, "--prompt", prompt, "--permissions", "ask", "--allow", "Bash(troupe signal*)", "--json"]);

async function ended(name: string, timeoutMs = 90_000): Promise<Agent> {
  return waitFor(
    `${name} to end`,
    async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
      return a && ["done", "failed", "waiting", "stopped"].includes(a.status) ? a : undefined;
    },
    timeoutMs,
  );
}

const PROOF = "echo allowed > proof.txt && git add proof.txt && git commit -qm proof && cat proof.txt";

/** The tool_use ids the daemon stored, oldest first (read-only: the daemon owns the store). */
function storedToolUseIds(): string[] {
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"), { readonly: true });
  try {
    return (db.query("SELECT tool_use_id FROM permission_requests ORDER BY seq").all() as { tool_use_id: string }[]).map((r) => r.tool_use_id);
  } finally {
    db.close();
  }
}

const pending = (timeoutMs = 60_000) =>
  waitFor("a pending permission request", async () => (await sb.json<PermissionRequest[]>(["permissions", "--json"]))[0], timeoutMs);

describe("Claude Code under --permissions ask", () => {
  test("a Bash call waits for the person; troupe allow lets it run and the agent finishes; the signal is allowed by a rule", async () => {
    claudeSandbox();
    scripts.set("asker", (req) =>
      [[bash(PROOF)], [bash(`troupe signal done --result "ran: ${lastToolResult(req)?.text.trim()}"`)]][turnIndex(req)] ?? [text("Done.")],
    );
    await spawnAsk("asker", "Write proof.txt.");
    const r = await pending();
    expect(r).toMatchObject({ agentName: "asker", kind: "tool", toolName: "Bash", status: "pending", input: { command: PROOF } });
    // Claude Code sends the call's tool_use id: the idempotency key the daemon keeps
    const raw = (await sb.run(["logs", "asker", "--raw"])).stdout;
    const toolUseId = /"type":"tool_use","id":"(toolu_[^"]+)","name":"Bash"/.exec(raw)?.[1];
    expect(toolUseId).toBeDefined();
    expect(storedToolUseIds()).toEqual([toolUseId!]);
    const listed = await sb.json<Agent[]>(["ls", "--json"]);
    expect(listed[0]).toMatchObject({ name: "asker", status: "running", pendingPermissions: 1 });
    expect((await sb.run(["ls"])).stdout).toContain("! running");
    expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
    const a = await ended("asker");
    expect(a).toMatchObject({ status: "done", result: "ran: allowed", pendingPermissions: 0 });
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((x) => [x.toolName, x.status, x.decidedBy])).toEqual([
      ["Bash", "allowed", "person"],
      ["Bash", "allowed", "rule"],
    ]);
    expect(all[1]!.rule).toBe("Bash(troupe signal*)");
  }, 150_000);

  test("troupe deny --reason: the model gets the reason as the tool's result and goes on", async () => {
    claudeSandbox();
    scripts.set("denied", (req) =>
      [[bash("rm -rf src")], [bash(`troupe signal done --result "told: ${lastToolResult(req)?.text.replace(/["$`\\]/g, "")}"`)]][turnIndex(req)] ?? [text("Done.")],
    );
    await spawnAsk("denied", "Clean up.");
    const r = await pending();
    expect(r.input).toMatchObject({ command: "rm -rf src" });
    expect(await sb.run(["deny", r.id, "--reason", "keep src, clean build/ instead"])).toMatchObject({ code: 0 });
    const a = await ended("denied");
    expect(a.status).toBe("done");
    // the scripted server received the reason in the tool_result of the denied call
    const denial = server.mainRequests().map(lastToolResult).find((t) => t?.text.includes("keep src, clean build/ instead"));
    expect(denial).toBeDefined();
    expect(denial!.isError).toBe(true);
    expect(a.result).toContain("keep src, clean build/ instead");
    // deciding it again is refused, with why
    const again = await sb.run(["allow", r.id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`${r.id} was already denied`);
  }, 150_000);

  // Claude Code runs read-only commands (echo, ls, cat) without asking: the call here changes something
  test("an allow rule answers without the person", async () => {
    claudeSandbox();
    // one simple command: an allow rule's `*` never lets a chain through (`git tag x && …` would ask)
    scripts.set("ruled", (req) => [[bash("git tag by-rule")], [bash('troupe signal done --result "by-rule"')]][turnIndex(req)] ?? [text("Done.")]);
    await sb.json(["spawn", "--provider", "claude", "--name", "ruled", "--prompt", "Echo.", "--permissions", "ask", "--allow", "Bash(git tag *)", "--allow", "Bash(troupe signal*)", "--json"]);
    const a = await ended("ruled");
    expect(a).toMatchObject({ status: "done", result: "by-rule" });
    expect(sb.git("tag", "-l", "by-rule").trim()).toBe("by-rule");
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((x) => [x.status, x.decidedBy, x.rule])).toEqual([
      ["allowed", "rule", "Bash(git tag *)"],
      ["allowed", "rule", "Bash(troupe signal*)"],
    ]);
  }, 150_000);

  test("kill -9 of the daemon while a request waits loses nothing: it is there after the restart and allowing it lets the agent finish", async () => {
    claudeSandbox();
    scripts.set("survivor", (req) => [[bash(PROOF)], [bash(`troupe signal done --result "${lastToolResult(req)?.text.trim()}"`)]][turnIndex(req)] ?? [text("Done.")]);
    await spawnAsk("survivor", "Write proof.txt.");
    const before = await pending();
    await sb.killDaemon();
    // any command starts a new daemon; the request is in the store, still pending
    const after = await pending();
    expect(after).toMatchObject({ id: before.id, status: "pending", input: { command: PROOF } });
    expect(await sb.run(["allow", after.id])).toMatchObject({ code: 0 });
    const a = await ended("survivor");
    expect(a).toMatchObject({ status: "done", result: "allowed" });
    // the permission tool reconnected to the new daemon: one request for the call, not two
    expect((await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).filter((x) => x.input.command === PROOF)).toHaveLength(1);
  }, 150_000);
});
