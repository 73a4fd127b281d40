// The one line that picks the sqlite adapter (see contract.ts).
export { openDatabase } from "./bun/sqlite.ts";
export type { Database, Statement, SqlValue } from "./contract.ts";
