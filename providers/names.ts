/**
 * The names of every provider, in the order a person is shown them. `index.ts` maps each to its
 * module; this list alone is cheap to import where only the names are needed (usage text).
 */
export const PROVIDER_NAMES = ["claude", "codex", "codex-acp", "gemini", "copilot", "opencode", "qwen", "kilo", "cline", "pi", "aider", "generic"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
