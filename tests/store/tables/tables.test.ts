import { describe, expect, test } from "bun:test";
import { openDatabase, type Database } from "../../../src/runtime/sqlite.ts";
import { migrateTo } from "../../../src/store/db.ts";
import { SCHEMA_VERSION } from "../../../src/store/migrations.ts";
import { migrationNumber, TABLES, type Column, type Table } from "../../../src/store/tables/index.ts";
import { AGENTS } from "../../../src/store/tables/agents.ts";
import { CONVERSATIONS, MESSAGES } from "../../../src/store/tables/conversations.ts";
import { MessageSchema } from "../../../src/protocol/message.ts";
import { FlowSchema } from "../../../src/protocol/flow.ts";
import { FLOWS, INITIATIVES, PHASES, TASKS } from "../../../src/store/tables/work.ts";
import { InitiativeSchema, PhaseSchema, TaskSchema } from "../../../src/protocol/work.ts";
import { PERMISSION_REQUESTS } from "../../../src/store/tables/permissions.ts";
import { PermissionRequestSchema } from "../../../src/protocol/permission.ts";
import { AgentSchema, ConversationSchema } from "../../../src/protocol/entities.ts";
import type { z } from "zod";

// The migrations stay hand-written steps; these hold them to the declarations, version by version.

interface Info {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

const info = (db: Database, table: string): Info[] =>
  (db.query(`PRAGMA table_info(${table})`).all() as Info[]).map(({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }));

/** The column names table `t` has at `version`, by its declaration (a renamed column by its old name before). */
function declaredAt(t: Table, version: number): string[] {
  return Object.entries(t.columns)
    .filter(([, c]) => !c.since || migrationNumber(c.since) <= version || c.was)
    .map(([name, c]) => (c.since && c.was && migrationNumber(c.since) > version ? c.was : name));
}

const expected = (name: string, c: Column, pkIndex: number) => ({
  name,
  type: c.type,
  notnull: c.notNull ? 1 : 0,
  dflt_value: c.default ?? null,
  pk: c.primaryKey ? 1 : pkIndex,
});

describe("table declarations", () => {
  test("at every version, each table has the columns its declaration gives it then, in order", () => {
    const db = openDatabase(":memory:");
    const born = new Map<string, number>();
    let compared = 0;
    for (let v = 1; v <= SCHEMA_VERSION; v++) {
      migrateTo(db, v);
      for (const t of TABLES) {
        const cols = info(db, t.name).map((c) => c.name);
        if (!cols.length) continue;
        if (!born.has(t.name)) born.set(t.name, v);
        expect({ table: t.name, v, cols }).toEqual({ table: t.name, v, cols: declaredAt(t, v) });
        compared++;
      }
    }
    // a column said to come with a later migration is not in its table before it
    for (const t of TABLES) for (const c of Object.values(t.columns)) if (c.since) expect(migrationNumber(c.since)).toBeGreaterThan(born.get(t.name)!);
    expect(compared).toBeGreaterThan(TABLES.length * 5);
    db.close();
  });

  test("a migrated store's columns are the declared ones: type, NOT NULL, default, primary key", () => {
    const db = openDatabase(":memory:");
    migrateTo(db, SCHEMA_VERSION);
    for (const t of TABLES) {
      const pk = /PRIMARY KEY \(([^)]*)\)/.exec((t.constraints ?? []).join(" "))?.[1]?.split(", ") ?? [];
      const want = Object.entries(t.columns).map(([name, c]) => expected(name, c, pk.indexOf(name) + 1));
      expect({ table: t.name, columns: info(db, t.name) }).toEqual({ table: t.name, columns: want });
    }
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(TABLES.map((t) => t.name).sort());
    db.close();
  });

  test("each column that holds an entity's field agrees with the entity's schema: null or not, and the kind of value", () => {
    const entities: [Table, z.ZodObject][] = [
      [AGENTS, AgentSchema],
      [CONVERSATIONS, ConversationSchema],
      [MESSAGES, MessageSchema],
      [FLOWS, FlowSchema],
      [PERMISSION_REQUESTS, PermissionRequestSchema],
      [PHASES, PhaseSchema],
      [TASKS, TaskSchema],
      [INITIATIVES, InitiativeSchema],
    ];
    let compared = 0;
    for (const [table, schema] of entities) {
      for (const [column, c] of Object.entries(table.columns)) {
        const field = c.field && schema.shape[c.field];
        if (!field) continue; // the store's own (a signal file, limits), or written only
        const where = `${table.name}.${column} (${c.field})`;
        expect({ where, nullable: field.safeParse(null).success }).toEqual({ where, nullable: !c.notNull && !c.primaryKey });
        expect({ where, kind: kindOf(field) }).toEqual({ where, kind: c.json ? "json" : c.bool ? "boolean" : c.type === "TEXT" ? "text" : c.type === "INTEGER" ? "integer" : "number" });
        compared++;
      }
    }
    // every field but the computed ones: the agent's pid, pendingPermissions and ports, a message's and a request's id, a phase's and a task's dependencies, an initiative's spending
    expect(compared).toBe(Object.keys(AgentSchema.shape).length - 3 + Object.keys(ConversationSchema.shape).length + Object.keys(MessageSchema.shape).length - 1 + Object.keys(FlowSchema.shape).length + Object.keys(PermissionRequestSchema.shape).length - 1 + Object.keys(PhaseSchema.shape).length - 1 + Object.keys(TaskSchema.shape).length - 1 + Object.keys(InitiativeSchema.shape).length - 1);
  });

  test("the check sees a column the migrations do not make", () => {
    const t = TABLES[0]!;
    const more: Table = { ...t, columns: { ...t.columns, not_made_by_any_migration: { type: "INTEGER", since: "offsets-in-chunks" } } };
    expect(declaredAt(more, SCHEMA_VERSION)).not.toEqual(declaredAt(t, SCHEMA_VERSION));
    expect(() => migrationNumber("no-such-migration")).toThrow();
  });
});

/** What a field's schema holds, in the words of a column: text, integer, number, boolean, or json (an object or a list). */
function kindOf(s: z.ZodType): string {
  const def = s._zod.def as { type: string; innerType?: z.ZodType; checks?: { _zod: { def: { check: string; format?: string } } }[] };
  if (def.type === "nullable" || def.type === "optional") return kindOf(def.innerType!);
  if (def.type === "string" || def.type === "enum") return "text";
  if (def.type === "number") return def.checks?.some((c) => c._zod.def.format === "safeint") ? "integer" : "number";
  if (def.type === "object" || def.type === "array" || def.type === "record") return "json";
  return def.type;
}
