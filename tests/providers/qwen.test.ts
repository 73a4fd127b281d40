import { describe, expect, test } from "bun:test";
import { qwen, qwenAllowedTools } from "../../providers/qwen.ts";
import { diagnose } from "../../src/agents/lifecycle/diagnose.ts";
import { readInputLine } from "../../providers/acp/lines.ts";
import { baseInput, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Qwen Code over its recorded runs (Claude Code's stream-json shapes)", () => {
  test("session with its model, the tool call with its result, the answer, the result with tokens", () => {
    expectRecordedLoop(qwen);
    expect(ofKind(loadFixture(qwen, "success").events, "session")[0]?.model).toBe("fake-model");
    expect(ofKind(loadFixture(qwen, "success").events, "result")[0]?.inputTokens).toBeGreaterThan(0);
  });

  test("a failed run's reason is its result text; its own stream and system notices give nothing", () => {
    expect(ofKind(loadFixture(qwen, "auth-401").events, "result")[0]).toMatchObject({ isError: true, text: "[API Error: 401 Incorrect API key provided: test.]" });
    for (const line of loadFixture(qwen, "quota-429").stdout) {
      const type = (JSON.parse(line) as { type: string }).type;
      if (type === "stream_event" || type === "system") expect(qwen.parseLine(line, "stdout").every((e) => e.kind === "session")).toBe(true);
    }
  });
});

describe("Qwen Code commands (over ACP)", () => {
  test("spawn: qwen --acp; the session mode is the runner's to set, per permission mode", () => {
    const skip = qwen.buildSpawn({ ...baseInput, permissions: "skip" });
    expect(skip.argv).toEqual(["qwen", "--acp"]);
    expect(skip.acp).toEqual({ permissions: "skip", mode: "yolo" });
    expect(readInputLine(skip.stdin!.trimEnd())).toEqual({ text: "fix the bug" });
    expect(skip).toMatchObject({ stdinStream: true, ownInput: true });
    expect(qwen.buildSpawn({ ...baseInput, permissions: "edits", model: "qwen3-coder" })).toMatchObject({ acp: { permissions: "edits", mode: "auto-edit" } });
    expect(qwen.buildSpawn({ ...baseInput, permissions: "edits", model: "qwen3-coder" }).argv.slice(-2)).toEqual(["--model", "qwen3-coder"]);
    expect(qwen.buildSpawn({ ...baseInput, permissions: "plan" }).acp?.mode).toBe("plan");
  });

  test("ask: the mode that asks, and no allow rule for the CLI (the daemon applies them)", () => {
    const ask = qwen.buildSpawn({ ...baseInput, permissions: "ask", allowedTools: ["Bash(npm test*)"] });
    expect(ask.argv).toEqual(["qwen", "--acp"]);
    expect(ask.acp).toEqual({ permissions: "ask", mode: "default" });
    expect(qwen.permissionModes).toEqual(["skip", "edits", "plan", "ask"]);
  });

  test("resume: the same command, the session loaded by the runner (session/load)", () => {
    const cmd = qwen.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" });
    expect(cmd.argv).toEqual(["qwen", "--acp"]);
    expect(cmd.acp).toEqual({ permissions: "skip", mode: "yolo", load: "s-1" });
  });

  test("auto-edit allows the agent's own troupe commands, and allow rules it can say as prefixes", () => {
    expect(qwen.buildSpawn({ ...baseInput, permissions: "edits" }).argv).toContain("--allowed-tools=run_shell_command(troupe signal)");
    const edits = qwenAllowedTools({ ...baseInput, permissions: "edits", allowedTools: ["Bash(npm test*)", "Read", "Edit(src/**)", "Bash(*)"] });
    expect(edits).toContain("run_shell_command(troupe signal)");
    expect(edits).toContain("run_shell_command(npm test)");
    expect(edits).toContain("read_file");
    expect(edits.some((t) => t.startsWith("edit"))).toBe(false);
    expect(edits).not.toContain("run_shell_command()");
    expect(qwenAllowedTools({ ...baseInput, permissions: "skip" })).toEqual([]);
  });
});

describe("troupe's MCP server for Qwen Code", () => {
  test("a settings file of its own, its tools declared at once, connected before the ACP session starts", () => {
    const inj = qwen.mcp!({ command: "/opt/troupe", args: ["mcp"], envNames: ["TROUPE_AGENT_TOKEN"], toolTimeoutMs: 1000, inputDir: "/in", permissions: "skip" });
    expect(inj.env).toEqual({ QWEN_CODE_SYSTEM_SETTINGS_PATH: "/in/qwen-settings.json", QWEN_CODE_LEGACY_MCP_BLOCKING: "1" });
    const settings = JSON.parse(inj.files!["/in/qwen-settings.json"]!) as { mcpServers: Record<string, unknown> };
    expect(settings.mcpServers.troupe).toMatchObject({ command: "/opt/troupe", args: ["mcp"], env: { TROUPE_AGENT_TOKEN: "$TROUPE_AGENT_TOKEN" }, trust: true, alwaysLoadTools: true });
  });
});

describe("Qwen Code's failures over ACP", () => {
  /** The class diagnose() gives a session whose output is this runner line. */
  const classOf = (message: string) => diagnose(qwen, [{ id: 1, agentId: "ag", session: 1, stream: "stdout", data: `${JSON.stringify({ troupe: "error", message })}\n`, createdAt: 0 }])?.failure;

  test("the prompt's JSON-RPC error (its details are the API's status and message), a session it cannot load", () => {
    // as the runner writes what 0.24.4 answered to a 401, and to session/load of a session it never recorded
    expect(classOf("the ACP session failed: Internal error: 401 Incorrect API key provided: test.")).toBe("auth");
    expect(classOf("the ACP session failed: Internal error: 429 Too many requests")).toBe("rate_limit");
    expect(classOf("the ACP session failed: Internal error: 503 upstream down")).toBe("overloaded");
    expect(classOf("the ACP session failed: Resource not found: session:0b0b0b0b-1111-4222-8333-444444444444")).toBe("setup");
  });
});
