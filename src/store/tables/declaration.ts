import type { z } from "zod";

/**
 * A table of the store, declared once as data: its columns in order (the order SQLite keeps, so
 * a column added by a later migration sits at the end), its table constraints and indexes. The
 * DDL of schema.sql is written from it (`npm run docs:schema`), migrations are held to it
 * (tests/store/tables/tables.test.ts: each column appears with the migration `since` names), and
 * an entity's repository derives its row mapping from the columns that name a `field`.
 */
export interface Table {
  readonly name: string;
  /** The comment above it in schema.sql. */
  readonly note?: string;
  readonly columns: Readonly<Record<string, Column>>;
  /** `PRIMARY KEY (a, b)`, `UNIQUE (a, b)`: after the columns, as SQLite keeps them. */
  readonly constraints?: readonly string[];
  /** Whole `CREATE INDEX` statements, without their `;`. */
  readonly indexes?: readonly string[];
}

export interface Column {
  readonly type: "TEXT" | "INTEGER" | "REAL";
  readonly primaryKey?: true;
  readonly autoincrement?: true;
  readonly notNull?: true;
  readonly unique?: true;
  /** An SQL literal: `0`, `'skip'`. */
  readonly default?: string;
  /** `agents(id) ON DELETE CASCADE`. */
  readonly references?: string;
  /** The migration that added it, by name, when that is not the one that made its table. */
  readonly since?: string;
  /** Its name before `since` renamed it. */
  readonly was?: string;
  /** Its comment in schema.sql. */
  readonly note?: string;

  // What the entity's repository reads and writes through it (src/store/entity.ts):
  /** The entity record's field it holds. */
  readonly field?: string;
  /** Not read into the record (it is written only: a token's hash). */
  readonly select?: false;
  /** A JSON text column: its value's schema, and what a malformed one reads as (reported). */
  readonly json?: { readonly schema: z.ZodType; readonly fallback: unknown };
  /** An INTEGER 0/1 read as a boolean. */
  readonly bool?: true;
  /** Set by an insert: from the new entity (`required`, `optional`: null when absent), or by the repository itself (`set`). */
  readonly insert?: "required" | "optional" | "set";
  /** An update may change it. */
  readonly patch?: true;
}

/** A column's definition in CREATE TABLE (and in ALTER TABLE ADD COLUMN: the same words). */
function columnSql(name: string, c: Column): string {
  let sql = `${name} ${c.type}`;
  if (c.primaryKey) sql += " PRIMARY KEY";
  if (c.autoincrement) sql += " AUTOINCREMENT";
  if (c.notNull) sql += " NOT NULL";
  if (c.unique) sql += " UNIQUE";
  if (c.default !== undefined) sql += ` DEFAULT ${c.default}`;
  if (c.references) sql += ` REFERENCES ${c.references}`;
  return sql;
}

/**
 * The table's statements as schema.sql has them: its note, CREATE TABLE with a comment after
 * each column that has one (the migration that added it, numbered by `version`), its indexes.
 */
export function tableSql(t: Table, version: (migration: string) => number): string {
  const defs = Object.entries(t.columns).map(([name, c]) => ({ sql: columnSql(name, c), comment: columnComment(c, version) }));
  const lines = [...defs, ...(t.constraints ?? []).map((sql) => ({ sql, comment: "" }))].map(
    (d, i, all) => `  ${d.sql}${i < all.length - 1 ? "," : ""}${d.comment ? ` -- ${d.comment}` : ""}`,
  );
  return [...(t.note ? [`-- ${t.note}`] : []), `CREATE TABLE ${t.name} (`, ...lines, ");", ...(t.indexes ?? []).map((i) => `${i};`)].join("\n");
}

function columnComment(c: Column, version: (migration: string) => number): string {
  if (!c.since) return c.note ?? "";
  const added = `${version(c.since)} ${c.since}${c.was ? ` (was ${c.was})` : ""}`;
  return c.note ? `${added}: ${c.note}` : added;
}
