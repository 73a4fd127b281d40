// Picks the hash adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { sha256Hex } from "#runtime/hash.ts";
