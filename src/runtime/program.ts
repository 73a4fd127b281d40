// Picks the program adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { program } from "#runtime/program.ts";
