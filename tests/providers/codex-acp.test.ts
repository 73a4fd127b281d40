import { describe, expect, test } from "bun:test";
import { codexAcp } from "../../providers/codex-acp.ts";
import { readInputLine } from "../../providers/acp/lines.ts";
import { baseInput, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Codex over ACP (codex-acp) over its recorded runs, under troupe's runner", () => {
  test("its session, the tool call by its command alone, its output, the answer, the turn", () => {
    expectRecordedLoop(codexAcp);
    const [use] = ofKind(loadFixture(codexAcp, "success").events, "tool_use");
    // the command, not the adapter's ids and timings beside it
    expect(use).toMatchObject({ name: "execute", input: "echo hello from the tool" });
  });

  test("a failed prompt says what the adapter said of it, not only its JSON-RPC error", () => {
    const [err] = ofKind(loadFixture(codexAcp, "auth-401").events, "error");
    expect(err?.message).toMatch(/^the ACP session failed: Internal error: unexpected status 401 Unauthorized: Incorrect API key/);
  });
});

describe("Codex over ACP commands", () => {
  const flags = (permissions: "skip" | "edits" | "plan" | "ask") => codexAcp.buildSpawn({ ...baseInput, permissions }).argv.filter((_, i, a) => a[i - 1] === "-c");

  test("each mode is the adapter's config overrides, no session mode: ask is the policy that asks before commands", () => {
    const skip = codexAcp.buildSpawn({ ...baseInput, permissions: "skip" });
    expect(skip.argv[0]).toBe("codex-acp");
    expect(skip.acp).toEqual({ permissions: "skip", mode: null });
    expect(readInputLine(skip.stdin!.trimEnd())).toEqual({ text: "fix the bug" });
    expect(flags("skip")).toEqual(['approval_policy="never"', 'sandbox_mode="danger-full-access"']);
    // the sandboxes have network: without it Codex's denies the Unix socket `troupe signal` speaks over
    expect(flags("edits")).toEqual(['approval_policy="never"', 'sandbox_mode="workspace-write"', "sandbox_workspace_write.network_access=true"]);
    expect(flags("ask")).toEqual(['approval_policy="untrusted"', 'sandbox_mode="workspace-write"', "sandbox_workspace_write.network_access=true"]);
    expect(flags("plan")).toEqual(['approval_policy="never"', 'default_permissions="troupe_read_only"', 'permissions.troupe_read_only.extends=":read-only"', "permissions.troupe_read_only.network.enabled=true"]);
    expect(codexAcp.permissionModes).toEqual(["skip", "edits", "plan", "ask"]);
    expect(codexAcp.buildSpawn({ ...baseInput, permissions: "skip", model: "gpt-5.5" }).argv.slice(-2)).toEqual(["-c", 'model="gpt-5.5"']);
  });

  test("resume: the runner loads the session (session/load); troupe's MCP server is the CLI's own config override", () => {
    expect(codexAcp.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" }).acp).toMatchObject({ load: "s-1" });
    const inj = codexAcp.mcp!({ command: "/t/troupe", args: ["mcp"], envNames: ["TROUPE_AGENT_ID"], toolTimeoutMs: 600_000, inputDir: "/in", permissions: "ask" });
    expect(inj.args).toContain('mcp_servers.troupe.command="/t/troupe"');
    expect(inj.args).toContain('mcp_servers.troupe.default_tools_approval_mode="approve"');
  });
});
