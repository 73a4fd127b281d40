import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { Database, OpenDatabase, SqlValue, Statement } from "../contract.ts";

/** node:sqlite binds no booleans (bun:sqlite binds them as 0 and 1): the same here, copying only when one is there. */
function bind(params: SqlValue[]): SQLInputValue[] {
  for (let i = 0; i < params.length; i++) {
    if (typeof params[i] === "boolean") return params.map((p) => (typeof p === "boolean" ? Number(p) : p));
  }
  return params as SQLInputValue[];
}

/** bun:sqlite's statement shape over node:sqlite's: a missing row is null, changes a number. */
class NodeStatement implements Statement {
  constructor(private readonly s: StatementSync) {}
  get(...params: SqlValue[]): unknown {
    return this.s.get(...bind(params)) ?? null;
  }
  all(...params: SqlValue[]): unknown[] {
    return this.s.all(...bind(params));
  }
  run(...params: SqlValue[]): { changes: number } {
    return { changes: Number(this.s.run(...bind(params)).changes) };
  }
  iterate(...params: SqlValue[]): IterableIterator<unknown> {
    return this.s.iterate(...bind(params)) as IterableIterator<unknown>;
  }
}

class NodeDatabase implements Database {
  private readonly statements = new Map<string, NodeStatement>();
  /** Transactions in progress on this connection: an inner one is a savepoint, as bun:sqlite nests them. */
  private depth = 0;

  constructor(private readonly db: DatabaseSync) {}

  query(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = new NodeStatement(this.db.prepare(sql));
      this.statements.set(sql, s);
    }
    return s;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const savepoint = this.depth > 0 ? `troupe_${this.depth}` : null;
      this.db.exec(savepoint ? `SAVEPOINT ${savepoint}` : "BEGIN");
      this.depth++;
      try {
        const result = fn(...args);
        this.db.exec(savepoint ? `RELEASE ${savepoint}` : "COMMIT");
        return result;
      } catch (err) {
        this.db.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : "ROLLBACK");
        throw err;
      } finally {
        this.depth--;
      }
    };
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}

export const openDatabase: OpenDatabase = (path) => new NodeDatabase(new DatabaseSync(path));
