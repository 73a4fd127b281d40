// Picks the text-width adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts):
// a module of its own, since Deno's (the string-width package) costs ~23 ms to load, which a start
// that only prints (`troupe answer`) does not pay.
export { stringWidth } from "#runtime/string-width.ts";
