import { describe, expect, test } from "bun:test";
import { cline } from "../../providers/cline.ts";
import { readInputLine } from "../../providers/acp/lines.ts";
import { diagnose } from "../../src/agents/lifecycle/diagnose.ts";
import { baseInput, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Cline over its recorded runs", () => {
  test("its headless runs (sessions from before ACP): the tool call with its result, the answer, the run's result with tokens; no session id", () => {
    // recorded headless, which names no session and resumes none: the loop as such a run shows it
    expectRecordedLoop({ ...cline, buildResume: null });
    const events = loadFixture(cline, "success").events;
    expect(ofKind(events, "session")).toEqual([]);
    expect(ofKind(events, "result")[0]?.inputTokens).toBeGreaterThan(0);
  });

  test("an API refusal comes with Cline's own class for it", () => {
    expect(ofKind(loadFixture(cline, "auth-401").events, "error")[0]).toMatchObject({ failure: "auth", message: "Incorrect API key provided: test." });
  });

  test("its AI SDK warnings on stderr stay raw", () => {
    for (const line of loadFixture(cline, "success").stderr) expect(cline.parseLine(line, "stderr")).toEqual([{ kind: "raw", line }]);
  });
});

describe("Cline commands (over ACP)", () => {
  test("spawn: cline --acp approving every call itself (skip: act, plan: its plan mode); the mode is the runner's to set", () => {
    const skip = cline.buildSpawn({ ...baseInput, permissions: "skip", prompt: "-x" });
    expect(skip.argv).toEqual(["cline", "--acp", "--auto-approve", "true"]);
    expect(skip.acp).toEqual({ permissions: "skip", mode: "act" });
    expect(readInputLine(skip.stdin!.trimEnd())).toEqual({ text: "-x" });
    expect(skip).toMatchObject({ stdinStream: true, ownInput: true });
    expect(cline.buildSpawn({ ...baseInput, permissions: "plan" })).toMatchObject({ argv: ["cline", "--acp", "--auto-approve", "true"], acp: { permissions: "plan", mode: "plan" } });
  });

  test("ask: act, Cline asking about every call (the daemon applies the rules); edits is not offered", () => {
    const ask = cline.buildSpawn({ ...baseInput, permissions: "ask", allowedTools: ["Bash(npm test*)"] });
    expect(ask.argv).toEqual(["cline", "--acp"]);
    expect(ask.acp).toEqual({ permissions: "ask", mode: "act" });
    expect(cline.permissionModes).toEqual(["skip", "plan", "ask"]);
    expect(() => cline.buildSpawn({ ...baseInput, permissions: "edits" })).toThrow("--permissions edits is not available for Cline: it approves tools all or none");
  });

  test("resume: the same command, the session loaded by the runner (session/load); its session in its own process, a model as CLINE_MODEL", () => {
    const cmd = cline.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1", model: "gpt-4o" });
    expect(cmd.argv).toEqual(["cline", "--acp", "--auto-approve", "true"]);
    expect(cmd.acp).toEqual({ permissions: "skip", mode: "act", load: "s-1" });
    expect(cmd.env).toEqual({ CLINE_SESSION_BACKEND_MODE: "local", CLINE_MODEL: "gpt-4o" });
  });

  test("troupe's MCP server is in a settings file of the session's, which CLINE_MCP_SETTINGS_PATH names, with no secret in it", () => {
    const inj = cline.mcp!({ command: "/opt/troupe", args: ["mcp"], envNames: ["TROUPE_AGENT_TOKEN"], toolTimeoutMs: 600_000, inputDir: "/w/.troupe/input", permissions: "skip" });
    expect(inj.env).toEqual({ CLINE_MCP_SETTINGS_PATH: "/w/.troupe/input/cline-mcp-settings.json" });
    expect(JSON.parse(inj.files!["/w/.troupe/input/cline-mcp-settings.json"]!)).toEqual({ mcpServers: { troupe: { command: "/opt/troupe", args: ["mcp"], timeout: 600 } } });
    // its limit: Cline holds no MCP call longer than an hour
    const long = cline.mcp!({ command: "/opt/troupe", args: ["mcp"], envNames: [], toolTimeoutMs: 7 * 24 * 3600_000, inputDir: "/w/.troupe/input", permissions: "skip" });
    expect(JSON.parse(long.files!["/w/.troupe/input/cline-mcp-settings.json"]!).mcpServers.troupe.timeout).toBe(3600);
  });

  test("a session it cannot start without credentials is an auth failure", () => {
    const message = "the ACP session failed: Authentication required: Call authenticate before starting a session";
    const chunk = { id: 1, agentId: "ag", session: 1, stream: "stdout" as const, data: `${JSON.stringify({ troupe: "error", message })}\n`, createdAt: 0 };
    expect(diagnose(cline, [chunk])?.failure).toBe("auth");
  });
});
