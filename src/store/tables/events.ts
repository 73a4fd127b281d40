import type { Table } from "./declaration.ts";

// The event log.

export const EVENTS = {
  name: "events",
  note: "The lifecycle events clients replay from (output is not here: it lives in its chunks).",
  columns: {
    id: { type: "INTEGER", primaryKey: true, autoincrement: true, field: "id" },
    type: { type: "TEXT", notNull: true, field: "type", select: false, insert: "required" },
    payload: { type: "TEXT", notNull: true, note: "the event, whole (JSON), checked by its schema when replayed", field: "payload", insert: "required" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", select: false, insert: "set" },
  },
} as const satisfies Table;
