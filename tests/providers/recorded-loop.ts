import { expect } from "bun:test";
import type { Provider } from "../../providers/types.ts";
import { fixtureCases, loadFixture, ofKind } from "./fixture-helpers.ts";

/**
 * What every CLI recorded by scripts/record-chat-fixtures.ts must show of its `success` run (one
 * shell tool call, `echo hello from the tool`, then an answer) and of its `resume` (the same
 * session): what the dashboard and `troupe logs` are made of.
 */
export function expectRecordedLoop(p: Provider): void {
  const success = loadFixture(p, "success");
  const sessions = ofKind(success.events, "session").map((s) => s.sessionId);
  if (p.buildResume) expect(sessions.length).toBeGreaterThan(0);
  expect(new Set(sessions).size).toBeLessThanOrEqual(1);
  const [use] = ofKind(success.events, "tool_use");
  expect(use?.input).toContain("echo hello from the tool");
  const [result] = ofKind(success.events, "tool_result");
  expect(result).toMatchObject({ isError: false });
  expect(result?.output).toContain("hello from the tool");
  if (use?.id !== undefined) expect(result?.id).toBe(use.id);
  expect(ofKind(success.events, "text").map((t) => t.text).join("")).toContain("The command printed: hello from the tool. Done.");
  const results = ofKind(success.events, "result");
  expect(results.length).toBeGreaterThan(0);
  expect(results.every((r) => !r.isError)).toBe(true);
  expect(ofKind(success.events, "error")).toEqual([]);
  if (!p.buildResume) {
    expect(fixtureCases(p.name)).not.toContain("resume");
    return;
  }
  const resume = loadFixture(p, "resume");
  expect(ofKind(resume.events, "session")[0]?.sessionId).toBe(sessions[0]);
  expect(resume.meta.argv.join(" ")).toContain(sessions[0]!);
}
