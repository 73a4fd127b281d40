/**
 * The real Kilo Code CLI (from npm) under troupe, driven over the Agent Client Protocol (`kilo acp`
 * under troupe's runner, as opencode, which it forks), offline against a scripted OpenAI-compatible
 * model on 127.0.0.1: what every ACP-driven provider does (tests/support/acp-contract.ts).
 */
import { acpProviderContract } from "../support/acp-contract.ts";

acpProviderContract({
  cli: "kilo",
  displayName: "Kilo Code",
  acpProcess: "kilo acp",
  sleep: (s) => `sleep ${s}`,
  reportsTokens: true,
  reportsCost: true,
  reportsPlan: true,
  deniedSays: /rejected/i,
});
