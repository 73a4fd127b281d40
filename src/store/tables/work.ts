import { z } from "zod";
import { PermissionPolicySchema } from "../../protocol/permission.ts";
import { DispatchSchema, LostRunSchema } from "../../protocol/work.ts";
import type { Table } from "./declaration.ts";

/** File paths (a merge's conflicts) or globs (the files a task owns). */
const Paths = z.array(z.string()).nullable();

// The work model, the branches troupe made, scheduled flows.

export const INITIATIVES = {
  name: "initiatives",
  note: "The work model: initiatives, phases (a DAG), tasks (a DAG within a phase).",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    name: { type: "TEXT", notNull: true, field: "name", insert: "required" },
    slug: { type: "TEXT", notNull: true, unique: true, field: "slug", insert: "required" },
    goal: { type: "TEXT", notNull: true, field: "goal", patch: true, insert: "required" },
    proposed_goal: { type: "TEXT", field: "proposedGoal", patch: true },
    proposed_goal_by: { type: "TEXT", field: "proposedGoalBy", patch: true },
    status: { type: "TEXT", notNull: true, field: "status", patch: true, insert: "set" },
    base_ref: { type: "TEXT", notNull: true, field: "baseRef", insert: "required" },
    base_commit: { type: "TEXT", notNull: true, field: "baseCommit", insert: "required" },
    branch: { type: "TEXT", notNull: true, field: "branch", insert: "required" },
    review: { type: "TEXT", notNull: true, field: "review", insert: "required" },
    dispatch_json: { type: "TEXT", field: "dispatch", json: { schema: DispatchSchema.nullable(), fallback: null }, patch: true },
    version: { type: "INTEGER", notNull: true, default: "1", field: "version" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    updated_at: { type: "INTEGER", notNull: true, field: "updatedAt", insert: "set" },
    budget_usd: { type: "REAL", since: "initiative-budget", field: "budgetUsd", patch: true, insert: "required" },
    reason: { type: "TEXT", since: "initiative-budget", note: "why dispatch holds it", field: "reason", patch: true },
    permissions_json: { type: "TEXT", since: "permissions", note: "the policy its dispatched agents inherit", field: "permissions", json: { schema: PermissionPolicySchema.nullable(), fallback: null }, insert: "required" },
    pr_url: { type: "TEXT", since: "pull-requests", note: "its branch's pull request (troupe initiative pr)", field: "prUrl", patch: true },
  },
} as const satisfies Table;

export const PHASES = {
  name: "phases",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    initiative_id: { type: "TEXT", notNull: true, references: "initiatives(id)", field: "initiativeId", insert: "required" },
    slug: { type: "TEXT", notNull: true, field: "slug", insert: "required" },
    title: { type: "TEXT", notNull: true, field: "title", patch: true, insert: "required" },
    content: { type: "TEXT", notNull: true, field: "content", patch: true, insert: "required" },
    status: { type: "TEXT", notNull: true, field: "status", patch: true, insert: "required" },
    proposed_by: { type: "TEXT", field: "proposedBy", patch: true, insert: "required" },
    reason: { type: "TEXT", field: "reason", patch: true },
    revise: { type: "INTEGER", notNull: true, default: "0", field: "revise", bool: true, patch: true },
    version: { type: "INTEGER", notNull: true, default: "1", field: "version" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    updated_at: { type: "INTEGER", notNull: true, field: "updatedAt", insert: "set" },
    pin: { type: "TEXT", since: "task-hosts", note: "the host its tasks run on (troupe pin)", field: "pin", patch: true },
  },
  constraints: ["UNIQUE (initiative_id, slug)"],
} as const satisfies Table;

export const PHASE_DEPS = {
  name: "phase_deps",
  columns: {
    phase_id: { type: "TEXT", notNull: true, references: "phases(id) ON DELETE CASCADE" },
    depends_on: { type: "TEXT", notNull: true, references: "phases(id) ON DELETE CASCADE" },
  },
  constraints: ["PRIMARY KEY (phase_id, depends_on)"],
} as const satisfies Table;

export const TASKS = {
  name: "tasks",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    initiative_id: { type: "TEXT", notNull: true, references: "initiatives(id)", field: "initiativeId", insert: "required" },
    phase_id: { type: "TEXT", notNull: true, references: "phases(id) ON DELETE CASCADE", field: "phaseId", insert: "required" },
    slug: { type: "TEXT", notNull: true, field: "slug", insert: "required" },
    title: { type: "TEXT", notNull: true, field: "title", patch: true, insert: "required" },
    description: { type: "TEXT", notNull: true, field: "description", patch: true, insert: "required" },
    status: { type: "TEXT", notNull: true, field: "status", patch: true, insert: "required" },
    proposed_by: { type: "TEXT", field: "proposedBy", patch: true, insert: "required" },
    agent_id: { type: "TEXT", field: "agentId", patch: true },
    branch: { type: "TEXT", field: "branch", patch: true },
    summary: { type: "TEXT", field: "summary", patch: true },
    reason: { type: "TEXT", field: "reason", patch: true },
    conflicts_json: { type: "TEXT", field: "conflicts", json: { schema: Paths, fallback: null }, patch: true },
    merged_at: { type: "INTEGER", field: "mergedAt", patch: true },
    revise: { type: "INTEGER", notNull: true, default: "0", field: "revise", bool: true, patch: true },
    version: { type: "INTEGER", notNull: true, default: "1", field: "version" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    updated_at: { type: "INTEGER", notNull: true, field: "updatedAt", insert: "set" },
    merge_commit: { type: "TEXT", since: "dispatch-merges", field: "mergeCommit", patch: true },
    resolve_session: { type: "INTEGER", since: "dispatch-merges", note: "the resume asked to resolve a conflict", field: "resolveSession", patch: true },
    files_json: { type: "TEXT", since: "task-files", note: "the globs it owns; null: no list", field: "files", json: { schema: Paths, fallback: null }, patch: true, insert: "optional" },
    waiting: { type: "TEXT", since: "task-files", note: "why dispatch holds it though it is ready", field: "waiting", patch: true },
    host: { type: "TEXT", since: "task-hosts", note: "the pool's host it was placed on", field: "host", patch: true },
    placement: { type: "TEXT", since: "task-hosts", note: "why there", field: "placement", patch: true },
    pin: { type: "TEXT", since: "task-hosts", note: "the host the person pinned it to", field: "pin", patch: true },
    host_agent: { type: "TEXT", since: "task-hosts", note: "its agent's name on a remote host (chosen at the claim)", field: "hostAgent", patch: true },
    lost_json: { type: "TEXT", notNull: true, default: "'[]'", since: "task-hosts", note: "its runs on hosts lost mid-task", field: "lostRuns", json: { schema: z.array(LostRunSchema), fallback: [] }, patch: true },
  },
  constraints: ["UNIQUE (initiative_id, slug)"],
  indexes: ["CREATE INDEX tasks_phase ON tasks(phase_id, created_at)"],
} as const satisfies Table;

export const TASK_DEPS = {
  name: "task_deps",
  columns: {
    task_id: { type: "TEXT", notNull: true, references: "tasks(id) ON DELETE CASCADE" },
    depends_on: { type: "TEXT", notNull: true, references: "tasks(id) ON DELETE CASCADE" },
  },
  constraints: ["PRIMARY KEY (task_id, depends_on)"],
} as const satisfies Table;

export const MODE_IMPORTS = {
  name: "mode_imports",
  note: "Mode runs whose outputs were imported (once per session).",
  columns: {
    agent_id: { type: "TEXT", notNull: true, references: "agents(id) ON DELETE CASCADE", field: "agentId", insert: "required" },
    session: { type: "INTEGER", notNull: true, field: "session", insert: "required" },
    imported_at: { type: "INTEGER", notNull: true, field: "importedAt", insert: "set" },
  },
  constraints: ["PRIMARY KEY (agent_id, session)"],
} as const satisfies Table;

export const TROUPE_BRANCHES = {
  name: "troupe_branches",
  note: "Branches troupe created (never deleted: gc lists those no agent owns).",
  columns: {
    branch: { type: "TEXT", primaryKey: true, field: "branch", insert: "required" },
    agent_id: { type: "TEXT", field: "agentId", insert: "required" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
  },
} as const satisfies Table;

export const FLOWS = {
  name: "flows",
  note: "Scheduled flows (their environment is a 0600 file, never here).",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    name: { type: "TEXT", notNull: true, unique: true, field: "name", insert: "required" },
    cron: { type: "TEXT", notNull: true, field: "cron", insert: "required" },
    profile: { type: "TEXT", field: "profile", insert: "required" },
    provider: { type: "TEXT", field: "provider", insert: "required" },
    prompt: { type: "TEXT", notNull: true, field: "prompt", insert: "required" },
    gate: { type: "TEXT", field: "gate", insert: "required" },
    enabled: { type: "INTEGER", notNull: true, default: "1", field: "enabled", bool: true, insert: "set" },
    next_run_at: { type: "INTEGER", field: "nextRunAt", insert: "required" },
    last_run_at: { type: "INTEGER", field: "lastRunAt" },
    last_agent_id: { type: "TEXT", field: "lastAgentId" },
    last_outcome: { type: "TEXT", field: "lastOutcome" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
  },
} as const satisfies Table;
