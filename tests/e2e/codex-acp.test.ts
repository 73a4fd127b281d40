/**
 * Codex under troupe over the Agent Client Protocol, through Zed's adapter (`codex-acp`, from npm,
 * under troupe's runner), offline against the scripted model on 127.0.0.1 spoken to over the
 * Responses API (scripts/fake-chat-responses.ts): what every ACP-driven provider does
 * (tests/support/acp-contract.ts).
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { shell, turnIndex } from "../../scripts/fake-chat-completions.ts";
import { acpProviderContract } from "../support/acp-contract.ts";

const t = acpProviderContract({
  cli: "codex-acp",
  displayName: "Codex (ACP)",
  acpProcess: "codex-acp",
  sleep: (s) => `sleep ${s}`,
  reportsTokens: false,
  reportsCost: false,
  reportsPlan: true,
  // Codex has a spawn_agent of its own (multi_agent_v1); troupe's is in the namespace of its MCP server
  mcpTool: /^mcp__troupe__spawn_agent$/,
  // a rejected call ends its turn (its option says "No, and tell Codex what to do differently")
  deniedSays: /turn ended: cancelled/,
});

test("plan: its read-only sandbox writes nothing, and its command still reaches troupe (troupe signal done)", async () => {
  const sb = await t.sandbox((req) => (turnIndex(req) === 0 ? shell(req, `touch .troupe/wrote.txt; troupe signal done --result "read only"`) : { text: "Done." }));
  await sb.json(["spawn", "--provider", "codex-acp", "--name", "reader", "--prompt", "Look, then signal.", "--permissions", "plan", "--json"]);
  const a = await t.ended(sb, "reader");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "read only" });
  expect(existsSync(join(a.cwd, ".troupe", "wrote.txt"))).toBe(false);
}, 300_000);
