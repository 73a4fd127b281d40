import type { Table } from "./table.ts";

// Permission requests and each agent's own rules.

export const PERMISSION_REQUESTS = {
  name: "permission_requests",
  note: "Permission requests (one per tool call: the tool_use id is the key) and each agent's own rules.",
  columns: {
    seq: { type: "INTEGER", primaryKey: true, autoincrement: true },
    agent_id: { type: "TEXT", notNull: true },
    agent_name: { type: "TEXT", notNull: true },
    session: { type: "INTEGER", notNull: true },
    tool_use_id: { type: "TEXT", notNull: true },
    kind: { type: "TEXT", notNull: true },
    tool_name: { type: "TEXT", notNull: true },
    input_json: { type: "TEXT", notNull: true },
    status: { type: "TEXT", notNull: true, default: "'pending'" },
    decided_by: { type: "TEXT" },
    rule: { type: "TEXT" },
    reason: { type: "TEXT" },
    updated_input_json: { type: "TEXT" },
    created_at: { type: "INTEGER", notNull: true },
    decided_at: { type: "INTEGER" },
  },
  constraints: ["UNIQUE (agent_id, tool_use_id)"],
  indexes: ["CREATE INDEX permission_requests_pending ON permission_requests(agent_id) WHERE status = 'pending'"],
} as const satisfies Table;

export const AGENT_PERMISSION_RULES = {
  name: "agent_permission_rules",
  columns: {
    agent_id: { type: "TEXT", notNull: true },
    effect: { type: "TEXT", notNull: true },
    rule: { type: "TEXT", notNull: true },
    source: { type: "TEXT", notNull: true },
    created_at: { type: "INTEGER", notNull: true },
  },
  constraints: ["PRIMARY KEY (agent_id, effect, rule)"],
} as const satisfies Table;
