// The one line that picks the hash adapter (see contract.ts).
export { sha256Hex } from "./bun/hash.ts";
