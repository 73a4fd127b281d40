import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionLog } from "../../src/acp/session-log.ts";
import { ToolCalls } from "../../src/acp/tool-calls.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A ToolCalls writing to a file, and the troupe lines it wrote. */
function calls() {
  dir = mkdtempSync(join(tmpdir(), "tool-calls-"));
  const path = join(dir, "out");
  const fd = openSync(path, "w");
  const tools = new ToolCalls(new SessionLog(fd, []));
  return { tools, lines: () => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

test("a call announced before its arguments (opencode 1.18.33) is shown once it runs, with what its updates said, and once only", () => {
  const { tools, lines } = calls();
  tools.update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "bash", kind: "execute", status: "pending", locations: [{ path: "/w" }], rawInput: { cwd: "/w" } });
  expect(lines()).toEqual([]);
  const running = { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress", title: "troupe signal done", rawInput: { command: "troupe signal done", cwd: "/w" } } as const;
  tools.update(running);
  tools.update(running);
  tools.update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" });
  expect(lines()).toEqual([{ troupe: "tool", toolCallId: "c1", kind: "execute", title: "troupe signal done", locations: ["/w"], rawInput: { command: "troupe signal done", cwd: "/w" } }]);
});

test("a call announced with its arguments (Copilot CLI 1.0.102: pending, then completed) is shown at once", () => {
  const { tools, lines } = calls();
  tools.update({ sessionUpdate: "tool_call", toolCallId: "c4", title: "Run the command", kind: "execute", status: "pending", rawInput: { command: "sleep 4", description: "Run the command" } });
  expect(lines()).toEqual([{ troupe: "tool", toolCallId: "c4", kind: "execute", title: "Run the command", rawInput: { command: "sleep 4", description: "Run the command" } }]);
  tools.update({ sessionUpdate: "tool_call_update", toolCallId: "c4", status: "completed" });
  expect(lines()).toHaveLength(1);
});

test("a call asked about is shown then, with the request's input; a call that never runs nor asks is not shown", () => {
  const { tools, lines } = calls();
  tools.update({ sessionUpdate: "tool_call", toolCallId: "c2", title: "Write", kind: "edit", status: "pending" });
  tools.update({ sessionUpdate: "tool_call", toolCallId: "c3", title: "Read", kind: "read", status: "pending" });
  tools.asked({ toolCallId: "c2", rawInput: { file_path: "a.txt" } });
  tools.update({ sessionUpdate: "tool_call_update", toolCallId: "c2", status: "failed" });
  tools.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } });
  expect(lines()).toEqual([{ troupe: "tool", toolCallId: "c2", kind: "edit", title: "Write", rawInput: { file_path: "a.txt" } }]);
});
