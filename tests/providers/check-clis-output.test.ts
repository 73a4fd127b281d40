/** `npm run check:clis` says what broke: each failed test, its error and what it got instead. */
import { expect, test } from "bun:test";
import { whatBroke } from "../../scripts/test-failures.ts";

// bun test's output for Claude Code 2.1.332 under tests/e2e/mcp-claude.test.ts (abridged)
const OUTPUT = `bun test v1.4.5 (a7733435c)

tests/e2e/mcp-claude.test.ts:
(pass) troupe's MCP tools in the real Claude Code > a supervisor with edits permissions may call troupe's tools (handoff) [12001.10ms]
73 |     await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--permissions", mode, "--prompt", "Hand the counting to a worker.", "--no-worktree", "--json"]);
75 |     expect(handed).toMatchObject({ isError: false, text: expect.stringContaining("Its result:\\n\\n3 files") });
                        ^
error: expect(received).toMatchObject(expected)

  {
-   "isError": false,
+   "isError": true,
+   "text": "Cannot call mcp__troupe__handoff while in plan mode.",
  }

- Expected  - 6
+ Received  + 2

      at <anonymous> (/work/tests/e2e/mcp-claude.test.ts:75:20)
(fail) troupe's MCP tools in the real Claude Code > a supervisor with plan permissions may call troupe's tools (handoff) [13810.21ms]
error: Timed out waiting for boss to end
(fail) troupe's MCP tools in the real Claude Code > assign + send_message [90001.00ms]

 1 pass
 2 fail
`;

test("each failed test is named with its error and what it received instead", () => {
  expect(whatBroke(OUTPUT)).toBe(
    "2 failed: troupe's MCP tools in the real Claude Code > a supervisor with plan permissions may call troupe's tools (handoff): " +
      'error: expect(received).toMatchObject(expected): received "isError": true, "text": "Cannot call mcp__troupe__handoff while in plan mode.",' +
      " | troupe's MCP tools in the real Claude Code > assign + send_message: error: Timed out waiting for boss to end",
  );
});

test("output without a failed test (a crash, a syntax error) gives its last line", () => {
  expect(whatBroke("bun test v1.4.5\n\nerror: Cannot find module 'x'\n")).toBe("error: Cannot find module 'x'");
});
