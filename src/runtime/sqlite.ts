// Picks the sqlite adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { openDatabase } from "#runtime/sqlite.ts";
export type { Database, SqlValue } from "./contract.ts";
