/**
 * The real Cline CLI (from npm) under troupe, driven over the Agent Client Protocol (`cline --acp`
 * under troupe's runner), offline against a scripted OpenAI-compatible model on 127.0.0.1: what
 * every ACP-driven provider does (tests/support/acp-contract.ts), a resume among it, which Cline's
 * headless mode could not give. Its ACP side reports no usage; troupe's tools are `troupe__<tool>`
 * there, beside a spawn_agent of its own.
 */
import { acpProviderContract } from "../support/acp-contract.ts";

acpProviderContract({
  cli: "cline",
  displayName: "Cline",
  acpProcess: "--acp",
  sleep: (s) => `sleep ${s}`,
  reportsTokens: false,
  reportsCost: false,
  reportsPlan: false,
  mcpTool: /^troupe__spawn_agent$/,
  deniedSays: /denied|rejected|not approved/i,
});
