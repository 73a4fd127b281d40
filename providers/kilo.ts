import { openCodeFamily } from "./opencode.ts";

/**
 * Kilo Code's CLI, `kilo run --format json` (checked against 7.7.7): a fork of opencode that
 * keeps its `run`, its JSON events and its config, with KILO_ in place of OPENCODE_.
 */
export const kilo = openCodeFamily({ name: "kilo", displayName: "Kilo Code", binary: "kilo", npmPackage: "@kilocode/cli", provenWith: "7.7.7", envPrefix: "KILO" });
