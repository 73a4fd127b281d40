/**
 * The real opencode CLI (from npm) under troupe, driven over the Agent Client Protocol (`opencode
 * acp` under troupe's runner), offline against a scripted OpenAI-compatible model on 127.0.0.1:
 * what every ACP-driven provider does (tests/support/acp-contract.ts).
 */
import { acpProviderContract } from "../support/acp-contract.ts";

acpProviderContract({
  cli: "opencode",
  displayName: "opencode",
  acpProcess: "opencode acp",
  sleep: (s) => `sleep ${s}`,
  reportsTokens: true,
  reportsCost: true,
  reportsPlan: true,
  deniedSays: /rejected/i,
});
