import { openCodeFamily } from "./opencode.ts";

/**
 * Kilo Code's CLI, `kilo acp` (checked against 7.7.7): a fork of opencode that keeps its ACP
 * agent, its JSON events and its config, with KILO_ in place of OPENCODE_; its agent that edits
 * and runs commands is `code` (it also offers ask, debug, orchestrator and plan).
 */
export const kilo = openCodeFamily({ name: "kilo", displayName: "Kilo Code", binary: "kilo", npmPackage: "@kilocode/cli", provenWith: "7.7.7", envPrefix: "KILO", workMode: "code" });
