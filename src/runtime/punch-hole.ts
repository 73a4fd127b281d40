// The one line that picks the hole-punching adapter (see contract.ts).
export { punchHole } from "./bun/punch-hole.ts";
