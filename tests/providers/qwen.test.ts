import { describe, expect, test } from "bun:test";
import { qwen, qwenAllowedTools } from "../../providers/qwen.ts";
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

describe("Qwen Code commands", () => {
  test("stream-json, an approval mode per permission, the prompt on stdin (its positional prompt takes no --)", () => {
    const cmd = qwen.buildSpawn({ ...baseInput, permissions: "skip" });
    expect(cmd.argv).toEqual(["qwen", "--output-format", "stream-json", "--approval-mode", "yolo"]);
    expect(cmd.stdin).toBe("fix the bug");
    expect(qwen.buildSpawn({ ...baseInput, permissions: "plan" }).argv).toContain("plan");
    expect(qwen.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" }).argv.slice(-2)).toEqual(["--resume", "s-1"]);
  });

  test("auto-edit allows the agent's own troupe commands, and allow rules it can say as prefixes", () => {
    const edits = qwenAllowedTools({ ...baseInput, permissions: "edits", allowedTools: ["Bash(npm test*)", "Read", "Edit(src/**)", "Bash(*)"] });
    expect(edits).toContain("run_shell_command(troupe signal)");
    expect(edits).toContain("run_shell_command(npm test)");
    expect(edits).toContain("read_file");
    expect(edits.some((t) => t.startsWith("edit"))).toBe(false);
    expect(edits).not.toContain("run_shell_command()");
    expect(qwenAllowedTools({ ...baseInput, permissions: "skip" })).toEqual([]);
  });
});
