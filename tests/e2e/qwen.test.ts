/**
 * The real Qwen Code CLI (from npm) under troupe, driven over the Agent Client Protocol (`qwen
 * --acp` under troupe's runner), offline against a scripted OpenAI-compatible model on 127.0.0.1:
 * what every ACP-driven provider does (tests/support/acp-contract.ts). Qwen Code ends its turn on a
 * rejected call, as its own UI's "no" does: the model hears of it with the next prompt.
 */
import { acpProviderContract } from "../support/acp-contract.ts";

acpProviderContract({
  cli: "qwen",
  displayName: "Qwen Code",
  acpProcess: "--acp",
  // Qwen Code refuses a `sleep` unless it stands alone and says why it waits
  sleep: (s) => `sleep ${s} # intentional-sleep: a step that takes a while`,
  reportsTokens: true,
  reportsCost: false,
  reportsPlan: false,
  deniedSays: /canceled by the user/,
});
