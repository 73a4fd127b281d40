import type { Table } from "./declaration.ts";

// The event log.

export const EVENTS = {
  name: "events",
  note: "The lifecycle events clients replay from (output is not here: it lives in its chunks).",
  columns: {
    id: { type: "INTEGER", primaryKey: true, autoincrement: true },
    type: { type: "TEXT", notNull: true },
    payload: { type: "TEXT", notNull: true },
    created_at: { type: "INTEGER", notNull: true },
  },
} as const satisfies Table;
