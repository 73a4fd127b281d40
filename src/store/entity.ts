import type { z } from "zod";
import type { SqlValue } from "../runtime/sqlite.ts";
import type { Column, Table } from "./tables/declaration.ts";

/**
 * An entity read and written through its table's declaration (src/store/tables/): the columns
 * that name a `field` are selected under that name, so a row comes back as the record; the few
 * that need it are decoded (JSON text, a 0/1 boolean); inserts and updates are written from the
 * same columns. Nothing about a field is written twice: its column says it all.
 */

/** Where the store reports damage it works around (the daemon's log). */
export interface StoreWarnings {
  warn(msg: string, extra?: unknown): void;
}

/**
 * A JSON column that does not hold what it should (edited by hand, a bug) reads as `fallback`,
 * so one damaged row cannot take the agent list down, but the damage is reported.
 */
export function parseJson<T>(schema: z.ZodType<T>, text: string | null, fallback: T, where: string, w: StoreWarnings): T {
  if (text === null) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    w.warn(`${where} is not JSON; read as ${JSON.stringify(fallback)}`, err);
    return fallback;
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  w.warn(`${where} is malformed (${r.error.issues[0]?.message ?? "invalid"}); read as ${JSON.stringify(fallback)}`);
  return fallback;
}

type Columns<T extends Table> = T["columns"];
/** The fields of the columns that match `P`. */
type FieldsWhere<T extends Table, P> = { [K in keyof Columns<T>]: Columns<T>[K] extends { readonly field: infer F extends string } & P ? F : never }[keyof Columns<T>];

/** Every field a column of `T` holds. */
type FieldsOf<T extends Table> = FieldsWhere<T, unknown>;
/** The fields read into the record (all but the write-only). */
type SelectedFieldsOf<T extends Table> = Exclude<FieldsOf<T>, FieldsWhere<T, { readonly select: false }>>;
/** What an insert takes, typed by `R` (the record and the write-only fields): the required fields, and the optional ones. */
export type NewOf<T extends Table, R> = { [F in FieldsWhere<T, { readonly insert: "required" }> & keyof R]: R[F] } & {
  [F in FieldsWhere<T, { readonly insert: "optional" }> & keyof R]?: R[F] | null;
};
/** What an update may change. */
export type PatchOf<T extends Table, R> = Partial<{ [F in FieldsWhere<T, { readonly patch: true }> & keyof R]: R[F] }>;
/**
 * `true` when every field of the record `R` but the `Computed` ones (the SELECT adds them) has its
 * column in `T`, and every column's field is the record's or a written-only one of `W`; else
 * `never`, so that `const covered: Covers<...> = true` fails to type-check.
 */
export type Covers<T extends Table, R, Computed extends string = never, W = unknown> = [
  Exclude<keyof R, SelectedFieldsOf<T> | Computed>,
  Exclude<FieldsOf<T>, keyof R | keyof W>,
] extends [never, never]
  ? true
  : never;

interface Mapped {
  readonly column: string;
  readonly field: string;
  readonly c: Column;
}

function encode(c: Column, value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (c.json) return JSON.stringify(value);
  if (c.bool) return value ? 1 : 0;
  return value as SqlValue;
}

export class EntityColumns {
  private readonly byField = new Map<string, Mapped>();
  private readonly selected: Mapped[];
  private readonly decoded: Mapped[];
  private readonly inserted: Mapped[];

  constructor(readonly table: Table) {
    const mapped = Object.entries(table.columns).flatMap(([column, c]) => (c.field ? [{ column, field: c.field, c }] : []));
    for (const m of mapped) this.byField.set(m.field, m);
    this.selected = mapped.filter((m) => m.c.select !== false);
    this.decoded = this.selected.filter((m) => m.c.json || m.c.bool);
    this.inserted = mapped.filter((m) => m.c.insert);
  }

  /**
   * `column AS field, ...` (each column prefixed by `alias.` when given): the record's columns, for
   * a SELECT or a RETURNING; `only`: those of these fields (none decoded), in the table's order.
   */
  select(alias?: string, only?: readonly string[]): string {
    const at = alias ? `${alias}.` : "";
    return (only ? this.selected.filter((m) => only.includes(m.field)) : this.selected).map((m) => (m.column === m.field ? `${at}${m.column}` : `${at}${m.column} AS ${m.field}`)).join(", ");
  }

  /** Turns a row selected with `select` into the record, in place: JSON columns parsed (`label` names the row in a warning), booleans read. */
  decode(row: Record<string, unknown>, label: string, w: StoreWarnings): void {
    for (const { field, c } of this.decoded) {
      const v = row[field];
      if (c.bool) row[field] = v === 1;
      else if (c.json && v !== null) row[field] = parseJson(c.json.schema, v as string, c.json.fallback, `${label}'s ${field}`, w);
    }
  }

  /** `INSERT INTO table (...) VALUES (?, ...)` of every column an insert sets; `or`: what a conflict does instead of failing. */
  insertSql(or?: "IGNORE" | "REPLACE"): string {
    return `INSERT ${or ? `OR ${or} ` : ""}INTO ${this.table.name} (${this.inserted.map((m) => m.column).join(", ")}) VALUES (${this.inserted.map(() => "?").join(", ")})`;
  }

  /** The values of insertSql, from the new entity and what the repository sets (an optional field absent: null). */
  insertValues(values: Readonly<Record<string, unknown>>): SqlValue[] {
    return this.inserted.map((m) => {
      const v = values[m.field];
      if (v === undefined && m.c.insert !== "optional") throw new Error(`${this.table.name}: an insert needs ${m.field}`);
      return encode(m.c, v);
    });
  }

  /** `column = ?` for each field the patch sets (undefined: left as it is), and its values. */
  assignments(patch: Readonly<Record<string, unknown>>): { sets: string[]; values: SqlValue[] } {
    const sets: string[] = [];
    const values: SqlValue[] = [];
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      const m = this.byField.get(field);
      if (!m?.c.patch) throw new Error(`${this.table.name}: an update may not set ${field}`);
      sets.push(`${m.column} = ?`);
      values.push(encode(m.c, value));
    }
    return { sets, values };
  }
}
