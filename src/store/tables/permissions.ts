import { z } from "zod";
import type { Table } from "./declaration.ts";

const Input = z.record(z.string(), z.unknown());

// Permission requests and each agent's own rules.

export const PERMISSION_REQUESTS = {
  name: "permission_requests",
  note: "Permission requests (one per tool call: the tool_use id is the key) and each agent's own rules.",
  columns: {
    seq: { type: "INTEGER", primaryKey: true, autoincrement: true },
    agent_id: { type: "TEXT", notNull: true, field: "agentId", insert: "required" },
    agent_name: { type: "TEXT", notNull: true, field: "agentName", insert: "required" },
    session: { type: "INTEGER", notNull: true, field: "session", insert: "required" },
    tool_use_id: { type: "TEXT", notNull: true, field: "toolUseId", insert: "required" },
    kind: { type: "TEXT", notNull: true, field: "kind", insert: "required" },
    tool_name: { type: "TEXT", notNull: true, field: "toolName", insert: "required" },
    input_json: { type: "TEXT", notNull: true, field: "input", json: { schema: Input, fallback: {} }, insert: "required" },
    status: { type: "TEXT", notNull: true, default: "'pending'", field: "status" },
    decided_by: { type: "TEXT", field: "decidedBy" },
    rule: { type: "TEXT", field: "rule" },
    reason: { type: "TEXT", field: "reason" },
    updated_input_json: { type: "TEXT", field: "updatedInput", json: { schema: Input.nullable(), fallback: null } },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    decided_at: { type: "INTEGER", field: "decidedAt" },
  },
  constraints: ["UNIQUE (agent_id, tool_use_id)"],
  indexes: ["CREATE INDEX permission_requests_pending ON permission_requests(agent_id) WHERE status = 'pending'"],
} as const satisfies Table;

export const AGENT_PERMISSION_RULES = {
  name: "agent_permission_rules",
  columns: {
    agent_id: { type: "TEXT", notNull: true, field: "agentId", insert: "required" },
    effect: { type: "TEXT", notNull: true, field: "effect", insert: "required" },
    rule: { type: "TEXT", notNull: true, field: "rule", insert: "required" },
    source: { type: "TEXT", notNull: true, field: "source", insert: "required" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
  },
  constraints: ["PRIMARY KEY (agent_id, effect, rule)"],
} as const satisfies Table;
