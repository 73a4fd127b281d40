import { describe, expect, test } from "bun:test";
import { copilot } from "../../providers/copilot.ts";
import { readInputLine } from "../../providers/acp/lines.ts";
import { diagnose } from "../../src/agents/lifecycle/diagnose.ts";
import { baseInput, failureOf, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Copilot CLI over its recorded headless runs (sessions from before ACP)", () => {
  test("the tool call with its result, the answer, and the session id that comes with the final result", () => {
    expectRecordedLoop(copilot);
    const events = loadFixture(copilot, "success").events;
    // the session id arrives last, just before the result
    expect(events.findIndex((e) => e.kind === "session")).toBeGreaterThan(events.findIndex((e) => e.kind === "text"));
  });

  test("each failed model call says its status: a spent quota is usage_limit, a refused connection network", () => {
    expect(ofKind(loadFixture(copilot, "quota-429").events, "error")[0]).toMatchObject({ failure: "usage_limit" });
    expect(ofKind(loadFixture(copilot, "no-server").events, "error")[0]).toMatchObject({ failure: "network" });
    expect(ofKind(loadFixture(copilot, "auth-401").events, "error").at(-1)).toMatchObject({ failure: "auth" });
  });

  test("bookkeeping events give nothing, an unknown one is kept raw", () => {
    for (const line of loadFixture(copilot, "success").stdout) {
      const type = (JSON.parse(line) as { type: string }).type;
      if (type === "session.background_tasks_changed" || type === "assistant.message_delta") expect(copilot.parseLine(line, "stdout")).toEqual([]);
    }
    const future = '{"type":"hologram.projected","data":{}}';
    expect(copilot.parseLine(future, "stdout")).toEqual([{ kind: "raw", line: future }]);
    expect(failureOf(copilot, "Could not connect to local model provider at http://127.0.0.1:9/v1.")).toBe("network");
  });
});

const AGENT = "https://agentclientprotocol.com/protocol/session-modes#agent";

describe("Copilot CLI commands (over ACP)", () => {
  test("spawn: copilot --acp, no update fetched mid-run, no question tool; skip allows all in its agent mode", () => {
    const skip = copilot.buildSpawn({ ...baseInput, permissions: "skip", model: "gpt-5" });
    expect(skip.argv).toEqual(["copilot", "--acp", "--no-auto-update", "--no-ask-user", "--allow-all", "--model=gpt-5"]);
    expect(skip.acp).toEqual({ permissions: "skip", mode: AGENT });
    expect(readInputLine(skip.stdin!.trimEnd())).toEqual({ text: "fix the bug" });
    expect(skip).toMatchObject({ stdinStream: true, ownInput: true });
  });

  test("edits allows writes and the agent's own troupe commands; plan is its plan mode; ask allows nothing itself", () => {
    const edits = copilot.buildSpawn({ ...baseInput, permissions: "edits" });
    expect(edits.argv).toContain("--allow-tool=write");
    expect(edits.argv).toContain("--allow-tool=shell(troupe signal:*)");
    expect(edits.argv).not.toContain("--allow-all");
    expect(edits.acp?.mode).toBe(AGENT);
    const plan = copilot.buildSpawn({ ...baseInput, permissions: "plan" });
    expect(plan.acp?.mode).toBe("https://agentclientprotocol.com/protocol/session-modes#plan");
    expect(plan.argv).toContain("--allow-tool=shell(troupe signal:*)");
    expect(plan.argv).not.toContain("--allow-tool=write");
    const ask = copilot.buildSpawn({ ...baseInput, permissions: "ask", allowedTools: ["Bash(npm test*)"] });
    expect(ask.argv).toEqual(["copilot", "--acp", "--no-auto-update", "--no-ask-user"]);
    expect(ask.acp).toEqual({ permissions: "ask", mode: AGENT });
    expect(copilot.permissionModes).toEqual(["skip", "edits", "plan", "ask"]);
  });

  test("resume: the same command, the session loaded by the runner (session/load)", () => {
    const cmd = copilot.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" });
    expect(cmd.argv).toEqual(copilot.buildSpawn({ ...baseInput, permissions: "skip" }).argv);
    expect(cmd.acp).toEqual({ permissions: "skip", mode: AGENT, load: "s-1" });
  });
});

describe("troupe's MCP server for Copilot CLI", () => {
  test("a config file of its own (--additional-mcp-config), its tools allowed, a tool timeout in ms", () => {
    const inj = copilot.mcp!({ command: "/opt/troupe", args: ["mcp"], envNames: ["TROUPE_AGENT_TOKEN"], toolTimeoutMs: 1000, inputDir: "/in", permissions: "skip" });
    expect(inj.args).toEqual(["--additional-mcp-config=@/in/copilot-mcp.json", "--allow-tool=troupe"]);
    const config = JSON.parse(inj.files!["/in/copilot-mcp.json"]!) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.troupe).toEqual({ type: "local", command: "/opt/troupe", args: ["mcp"], tools: ["*"], timeout: 1000 });
  });
});

describe("Copilot CLI's failures over ACP", () => {
  const recv = (text: string) => JSON.stringify({ acp: "recv", msg: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } } } });
  /** The class diagnose() gives a session whose output is these runner lines. */
  const classOf = (...lines: string[]) => diagnose(copilot, [{ id: 1, agentId: "ag", session: 1, stream: "stdout", data: lines.map((l) => `${l}\n`).join(""), createdAt: 0 }])?.failure;

  test("its Error message after a failed model call is the run's error; its Info ones and the model's words are text", () => {
    // as 1.0.102 sent them over ACP, against a BYOK endpoint answering 401, 429 and nothing
    expect(copilot.parseLine(recv("Error: Authentication failed with provider at http://127.0.0.1:9/v1 (HTTP 401)."), "stdout")).toEqual([{ kind: "error", message: "Authentication failed with provider at http://127.0.0.1:9/v1 (HTTP 401)." }]);
    expect(copilot.parseLine(recv("Info: Request failed due to a transient API error. Retrying..."), "stdout")).toEqual([{ kind: "text", text: "Info: Request failed due to a transient API error. Retrying...", delta: true }]);
    expect(copilot.parseLine(recv("Error: "), "stdout")[0]?.kind).toBe("text");
    expect(classOf(recv("Info: Request failed due to a transient API error. Retrying..."), recv("Error: Authentication failed with provider at http://127.0.0.1:9/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY"))).toBe("auth");
    expect(classOf(recv("Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 53.68 seconds) Last error: 429 You exceeded your current quota"))).toBe("usage_limit");
    expect(classOf(recv("Error: Failed to get response from the AI model; retried 5 times Last error: 429 Too Many Requests"))).toBe("rate_limit");
    expect(classOf(recv("Error: Failed to get response from the AI model; retried 5 times Last error: 503 upstream down"))).toBe("overloaded");
    expect(classOf(recv("Error: Could not connect to local model provider at http://127.0.0.1:9/v1."))).toBe("network");
  });

  test("a session it never recorded cannot be loaded: a setup failure", () => {
    const line = JSON.stringify({ troupe: "error", message: "the ACP session failed: Resource not found: Session 0b0b0b0b-1111-4222-8333-444444444444 not found" });
    expect(classOf(line)).toBe("setup");
  });
});
