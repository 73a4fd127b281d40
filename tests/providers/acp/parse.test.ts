import { describe, expect, test } from "bun:test";
import { withRunnerLines } from "../../../providers/acp/transport.ts";
import type { OutputEvent } from "../../../src/protocol/output.ts";
import { renderEvent } from "../../../src/output/lines.ts";

const headless = (line: string): OutputEvent[] => [{ kind: "raw", line: `headless:${line}` }];
const parse = withRunnerLines(headless);
const recv = (msg: unknown, extra: object = {}) => JSON.stringify({ acp: "recv", msg, ...extra });
const update = (u: object) => recv({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: u } });

describe("the ACP runner's lines as output events", () => {
  test("the agent's words are streamed text; a tool call (the runner's tool line) and its end are a tool use and its result", () => {
    expect(parse(update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } }), "stdout")).toEqual([{ kind: "text", text: "Hel", delta: true }]);
    // the frame may come before the call's input: the runner's line says it once it is known
    expect(parse(update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "bash", kind: "execute", status: "pending", locations: [] }), "stdout")).toEqual([]);
    expect(parse('{"troupe":"tool","toolCallId":"t1","kind":"execute","title":"npm test"}', "stdout")).toEqual([{ kind: "tool_use", id: "t1", name: "execute", input: "npm test" }]);
    expect(parse('{"troupe":"tool","toolCallId":"t3","kind":"edit","title":"Edit","locations":["src/a.ts"]}', "stdout")).toEqual([{ kind: "tool_use", id: "t3", name: "edit", input: "Edit src/a.ts" }]);
    expect(parse(update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" }), "stdout")).toEqual([]);
    expect(parse(update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed", content: [{ type: "content", content: { type: "text", text: "exit 1" } }] }), "stdout")).toEqual([
      { kind: "tool_result", id: "t1", output: "exit 1", isError: true },
    ]);
  });

  test("an output given only as a raw object says its command's output (codex-acp 0.16.0's aggregated_output), else the object", () => {
    expect(parse(update({ sessionUpdate: "tool_call_update", toolCallId: "t4", status: "completed", rawOutput: { aggregated_output: "ruled\n", exit_code: 0 } }), "stdout")).toEqual([{ kind: "tool_result", id: "t4", output: "ruled\n", isError: false }]);
    expect(parse(update({ sessionUpdate: "tool_call_update", toolCallId: "t5", status: "completed", rawOutput: { exit: 0 } }), "stdout")).toEqual([{ kind: "tool_result", id: "t5", output: '{"exit":0}', isError: false }]);
  });

  test("a diff content block is shown as a diff of its file", () => {
    const [ev] = parse(update({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed", content: [{ type: "diff", path: "src/a.ts", oldText: "a", newText: "b" }] }), "stdout");
    expect(ev).toEqual({ kind: "tool_result", id: "t2", output: "--- a/src/a.ts\n+++ b/src/a.ts\n-a\n+b", isError: false });
  });

  test("a plan is its entries with their status; an entry of a status troupe does not know is left out", () => {
    const [ev] = parse(update({ sessionUpdate: "plan", entries: [{ content: "read", status: "completed", priority: "high" }, { content: "fix", status: "in_progress" }, { content: "?", status: "maybe" }] }), "stdout");
    expect(ev).toEqual({ kind: "plan", entries: [{ content: "read", status: "completed", priority: "high" }, { content: "fix", status: "in_progress" }] });
    expect(renderEvent(ev!).map((l) => l.text)).toEqual(["plan:", "  [x] read", "  [>] fix"]);
  });

  test("a to-do tool's call (opencode's todowrite) is also the plan it writes; a call without a todos list is none", () => {
    const line = { troupe: "tool", toolCallId: "t6", kind: "other", title: "todowrite", rawInput: { todos: [{ content: "read", status: "completed", priority: "medium" }, { content: "fix", status: "in_progress" }, "junk"] } };
    expect(parse(JSON.stringify(line), "stdout")).toEqual([
      { kind: "tool_use", id: "t6", name: "other", input: `todowrite ${JSON.stringify(line.rawInput)}` },
      { kind: "plan", entries: [{ content: "read", status: "completed", priority: "medium" }, { content: "fix", status: "in_progress" }] },
    ]);
    expect(parse('{"troupe":"tool","toolCallId":"t7","kind":"other","title":"todowrite","rawInput":{"todos":"not a list"}}', "stdout")).toHaveLength(1);
  });

  test("the runner's facts: session, input, turn (with its usage), denied, wait, error", () => {
    expect(parse('{"troupe":"session","sessionId":"s1"}', "stdout")).toEqual([{ kind: "session", sessionId: "s1" }]);
    expect(parse('{"troupe":"input","text":"hi","id":"i1"}', "stdout")).toEqual([{ kind: "input", text: "hi", id: "i1" }]);
    expect(parse('{"troupe":"turn","stopReason":"end_turn","inputTokens":5,"outputTokens":2}', "stdout")).toEqual([{ kind: "result", isError: false, inputTokens: 5, outputTokens: 2 }]);
    expect(parse('{"troupe":"turn","stopReason":"cancelled"}', "stdout")).toEqual([{ kind: "result", isError: false, text: "turn ended: cancelled", stopReason: "cancelled" }]);
    expect(parse('{"troupe":"denied","toolCallId":"t1","reason":"no answer"}', "stdout")).toEqual([{ kind: "tool_result", id: "t1", output: "troupe denied the call: no answer", isError: true }]);
    expect(parse('{"troupe":"wait","ms":41200,"reason":"gemini cannot load session s1 sooner"}', "stdout")).toEqual([{ kind: "text", text: "troupe waits 42 s before starting the agent: gemini cannot load session s1 sooner" }]);
    expect(parse('{"troupe":"error","message":"gemini ended (exit 1)"}', "stdout")).toEqual([{ kind: "error", message: "gemini ended (exit 1)" }]);
  });

  test("what troupe sent, the agent's responses and a replayed history show nothing; the frames stay in the raw view", () => {
    expect(parse(JSON.stringify({ acp: "send", msg: { jsonrpc: "2.0", id: 1, method: "session/new", params: {} } }), "stdout")).toEqual([]);
    expect(parse(recv({ jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } }), "stdout")).toEqual([]);
    expect(parse(recv({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "old" } } } }, { replay: true }), "stdout")).toEqual([]);
  });

  test("any other line (a session from before, stderr, a broken frame) goes to the headless parser", () => {
    expect(parse('{"type":"init","session_id":"x"}', "stdout")).toEqual([{ kind: "raw", line: 'headless:{"type":"init","session_id":"x"}' }]);
    expect(parse('{"acp":"recv","msg":', "stdout")).toEqual([{ kind: "raw", line: 'headless:{"acp":"recv","msg":' }]);
    expect(parse('{"troupe":"input"}', "stdout")).toEqual([{ kind: "raw", line: 'headless:{"troupe":"input"}' }]);
    expect(parse('{"troupe":"turn"}', "stderr")).toEqual([{ kind: "raw", line: 'headless:{"troupe":"turn"}' }]);
  });
});
