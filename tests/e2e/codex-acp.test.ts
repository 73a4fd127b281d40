/**
 * Codex under troupe over the Agent Client Protocol, through Zed's adapter (`codex-acp`, from npm,
 * under troupe's runner), offline against the scripted model on 127.0.0.1 spoken to over the
 * Responses API (scripts/fake-chat-responses.ts): what every ACP-driven provider does
 * (tests/support/acp-contract.ts).
 */
import { acpProviderContract } from "../support/acp-contract.ts";

acpProviderContract({
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
