import { describe, expect, test } from "bun:test";
import { copilot } from "../../providers/copilot.ts";
import { baseInput, failureOf, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Copilot CLI over its recorded runs", () => {
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

describe("Copilot CLI commands", () => {
  test("JSON output, the prompt on stdin, no update fetched mid-run, no question tool", () => {
    const cmd = copilot.buildSpawn({ ...baseInput, permissions: "skip", model: "gpt-5" });
    expect(cmd.argv).toEqual(["copilot", "--output-format", "json", "--no-auto-update", "--no-ask-user", "--allow-all", "--model=gpt-5"]);
    expect(cmd.stdin).toBe("fix the bug");
  });

  test("edits allows writes and the agent's own troupe commands; plan is its plan mode; resume by id", () => {
    const edits = copilot.buildSpawn({ ...baseInput, permissions: "edits" }).argv;
    expect(edits).toContain("--allow-tool=write");
    expect(edits).toContain("--allow-tool=shell(troupe signal:*)");
    expect(edits).not.toContain("--allow-all");
    expect(copilot.buildSpawn({ ...baseInput, permissions: "plan" }).argv).toContain("--plan");
    expect(copilot.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" }).argv.at(-1)).toBe("--resume=s-1");
  });
});
