import { Database as BunDatabase } from "bun:sqlite";
import type { Database, OpenDatabase } from "../contract.ts";

/** bun:sqlite already has the contract's shape (the type checker holds it): no wrapper on the hot path. */
export const openDatabase: OpenDatabase = (path) => {
  const db: Database = new BunDatabase(path, { create: true, strict: true });
  return db;
};
