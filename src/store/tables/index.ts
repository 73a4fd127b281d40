import { MIGRATIONS, SCHEMA_VERSION } from "../migrations.ts";
import { AGENT_LOG_CHUNKS, AGENT_OUTPUT, AGENT_SESSIONS, AGENTS, PORT_LEASES } from "./agents.ts";
import { CONVERSATIONS, MESSAGES, REVIEW_COMMENTS, SESSION_INPUTS } from "./conversations.ts";
import { EVENTS } from "./events.ts";
import { AGENT_PERMISSION_RULES, PERMISSION_REQUESTS } from "./permissions.ts";
import { tableSql, type Table } from "./declaration.ts";
import { FLOWS, INITIATIVES, MODE_IMPORTS, PHASE_DEPS, PHASES, TASK_DEPS, TASKS, TROUPE_BRANCHES } from "./work.ts";

export type { Column, Table } from "./declaration.ts";

/** Every table of the store, in schema.sql's order. */
export const TABLES: readonly Table[] = [
  AGENTS,
  AGENT_SESSIONS,
  AGENT_LOG_CHUNKS,
  AGENT_OUTPUT,
  CONVERSATIONS,
  MESSAGES,
  EVENTS,
  INITIATIVES,
  PHASES,
  PHASE_DEPS,
  TASKS,
  TASK_DEPS,
  MODE_IMPORTS,
  TROUPE_BRANCHES,
  FLOWS,
  PERMISSION_REQUESTS,
  AGENT_PERMISSION_RULES,
  REVIEW_COMMENTS,
  SESSION_INPUTS,
  PORT_LEASES,
];

/** Migration `name`'s number (the user_version it brings the store to). */
export function migrationNumber(name: string): number {
  const i = MIGRATIONS.findIndex((m) => m.name === name);
  if (i < 0) throw new Error(`no migration named ${name}`);
  return i + 1;
}

/** src/store/schema.sql: what the migrations make of an empty store, written from the declarations. */
export function schemaSql(): string {
  const head = [
    `-- The store's schema as the migrations leave it (src/store/migrations.ts, version ${SCHEMA_VERSION}), written`,
    "-- from the table declarations in src/store/tables/ by `npm run docs:schema`: edit those, never this",
    "-- file, and nothing runs it. tests/store/migrations.test.ts holds it equal to what the migrations",
    "-- make of an empty store, and tests/store/tables/tables.test.ts each migration to the columns it adds.",
    "-- A column's comment names the migration that added it when that was not the one creating its",
    "-- table (columns added later sit at the end, in order).",
    "",
    `PRAGMA auto_vacuum = INCREMENTAL; -- ${migrationNumber("incremental-vacuum")} incremental-vacuum: dropped output gives its pages back`,
  ].join("\n");
  const tables = TABLES.map((t) => (t.note ? `\n${tableSql(t, migrationNumber)}` : tableSql(t, migrationNumber)));
  return `${head}\n${tables.join("\n")}\n`;
}
