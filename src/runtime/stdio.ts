// Picks the stdio adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { writeStdio } from "#runtime/stdio.ts";
