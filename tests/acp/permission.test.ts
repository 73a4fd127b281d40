import { describe, expect, test } from "bun:test";
import { answerOf, toolCallOf } from "../../src/acp/permission.ts";
import { ruleMatches } from "../../src/permissions/rules.ts";

const options = [
  { optionId: "always", name: "Always", kind: "allow_always" as const },
  { optionId: "once", name: "Allow", kind: "allow_once" as const },
  { optionId: "no", name: "Reject", kind: "reject_once" as const },
];
const request = { sessionId: "s1", options, toolCall: { toolCallId: "t1" } };

describe("an ACP tool call in troupe's terms", () => {
  test("execute is Bash with its command (the raw input's, else the title), which the rules read", () => {
    const c = toolCallOf({ toolCallId: "t1", title: "npm test -- --watch=false", kind: "execute" });
    expect(c).toMatchObject({ toolName: "Bash", input: { command: "npm test -- --watch=false", kind: "execute" } });
    expect(ruleMatches("Bash(npm test*)", c.toolName, c.input, null)).toBe(true);
    expect(toolCallOf({ toolCallId: "t1", title: "Run", kind: "execute", rawInput: { command: "ls" } }).input.command).toBe("ls");
  });

  test("Cline's run_commands list is one command a line: an allow's * stays within one, a deny sees each", () => {
    const c = toolCallOf({ toolCallId: "t1", title: "run_commands: troupe signal done", kind: "execute", rawInput: { commands: ["troupe signal done --result ok"] } });
    expect(c.input.command).toBe("troupe signal done --result ok");
    expect(ruleMatches("Bash(troupe signal *)", c.toolName, c.input, null)).toBe(true);
    const two = toolCallOf({ toolCallId: "t1", title: "run_commands: ls", kind: "execute", rawInput: { commands: ["ls", "curl x.test"] } });
    expect(two.input.command).toBe("ls\ncurl x.test");
    expect(ruleMatches("Bash(ls*)", two.toolName, two.input, null)).toBe(false);
  });

  test("an MCP tool Cline titles server__tool is mcp__server__tool, as troupe's rules name it", () => {
    expect(toolCallOf({ toolCallId: "t", title: 'troupe__send_message: {"to":"lead"}', kind: "other", rawInput: { to: "lead" } })).toMatchObject({ toolName: "mcp__troupe__send_message", input: { to: "lead" } });
    expect(ruleMatches("mcp__troupe__*", "mcp__troupe__send_message", {}, null)).toBe(true);
  });

  test("edit, read, search and fetch are Edit, Read, Grep and WebFetch of what they touch; another kind keeps its title", () => {
    expect(toolCallOf({ toolCallId: "t", title: "Edit a.ts", kind: "edit", locations: [{ path: "/w/src/a.ts" }] })).toMatchObject({ toolName: "Edit", input: { file_path: "/w/src/a.ts" } });
    expect(toolCallOf({ toolCallId: "t", title: "Read", kind: "read", locations: [{ path: "/w/b" }] }).toolName).toBe("Read");
    expect(toolCallOf({ toolCallId: "t", title: "TODO", kind: "search" })).toMatchObject({ toolName: "Grep", input: { pattern: "TODO" } });
    expect(toolCallOf({ toolCallId: "t", title: "https://x.test", kind: "fetch" })).toMatchObject({ toolName: "WebFetch", input: { url: "https://x.test" } });
    expect(toolCallOf({ toolCallId: "t", title: "spawn_agent (troupe MCP Server)", kind: "other" }).toolName).toBe("spawn_agent (troupe MCP Server)");
  });

  test("allowed picks allow once (troupe keeps the always rules itself); anything else rejects once; no such option is a cancel", () => {
    expect(answerOf(request, { status: "allowed" })).toEqual({ outcome: { outcome: "selected", optionId: "once" } });
    for (const status of ["denied", "cancelled", "pending"] as const) expect(answerOf(request, { status })).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(answerOf({ ...request, options: [options[0]!] }, { status: "denied" })).toEqual({ outcome: { outcome: "cancelled" } });
  });
});
