// Picks the hole-punching adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { punchHole } from "#runtime/punch-hole.ts";
