import { z } from "zod";
import { QuestionSchema } from "../../protocol/entities.ts";
import { FailureSchema } from "../../protocol/failure.ts";
import { PlanEntrySchema } from "../../protocol/output.ts";
import { AgentSandboxSchema } from "../../protocol/sandbox.ts";
import type { Table } from "./declaration.ts";

/**
 * Agents: the one table an entity is read through so far (src/store/agents.ts derives its select,
 * insert, update and row mapping from the columns that name a `field`). A column that names none
 * is the store's alone (the environment of old stores, the session asked to commit).
 */
export const AGENTS = {
  name: "agents",
  note: "Agents: one row each, with the state of its current run (its sessions are below).",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    name: { type: "TEXT", notNull: true, unique: true, field: "name", insert: "required" },
    provider: { type: "TEXT", notNull: true, field: "provider", insert: "required" },
    status: { type: "TEXT", notNull: true, field: "status", insert: "set", patch: true },
    prompt: { type: "TEXT", field: "prompt", insert: "required" },
    command: { type: "TEXT", field: "command", insert: "required" },
    model: { type: "TEXT", field: "model", insert: "required" },
    cwd: { type: "TEXT", notNull: true, field: "cwd", insert: "required" },
    worktree: { type: "TEXT", field: "worktree", insert: "required" },
    branch: { type: "TEXT", field: "branch", insert: "required" },
    base_ref: { type: "TEXT", field: "baseRef", insert: "required" },
    permissions: { type: "TEXT", notNull: true, default: "'skip'", field: "permissions", insert: "required" },
    token_hash: { type: "TEXT", notNull: true, unique: true, field: "tokenHash", select: false, insert: "required" },
    signal_file: { type: "TEXT", notNull: true, field: "signalFile", insert: "required" },
    env_json: { type: "TEXT", notNull: true, default: "'{}'", note: "blank: environments live in .troupe/agents/<id>/env.json (6)" },
    session: { type: "INTEGER", notNull: true, default: "0", field: "session", patch: true },
    provider_session_id: { type: "TEXT", field: "providerSessionId", patch: true },
    result: { type: "TEXT", field: "result", patch: true },
    error: { type: "TEXT", field: "error", patch: true },
    questions_json: { type: "TEXT", field: "questions", json: { schema: z.array(QuestionSchema), fallback: [] }, patch: true },
    exit_code: { type: "INTEGER", field: "exitCode", patch: true },
    cost_usd: { type: "REAL", field: "costUsd", patch: true },
    input_tokens: { type: "INTEGER", field: "inputTokens", patch: true },
    output_tokens: { type: "INTEGER", field: "outputTokens", patch: true },
    task_id: { type: "TEXT", field: "taskId", insert: "optional" },
    phase_id: { type: "TEXT", field: "phaseId", insert: "optional" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    updated_at: { type: "INTEGER", notNull: true, field: "updatedAt", insert: "set" },
    last_activity_at: { type: "INTEGER", field: "lastActivityAt", patch: true },
    parent_id: { type: "TEXT", since: "agent-parent", note: "the agent that spawned it (null: the person)", field: "parentId", insert: "optional" },
    legacy_env: { type: "INTEGER", notNull: true, default: "0", since: "env-out-of-store", note: "env_json still to move to its file" },
    mode: { type: "TEXT", since: "work-model", field: "mode", insert: "optional" },
    initiative_id: { type: "TEXT", since: "work-model", field: "initiativeId", insert: "optional" },
    uncommitted: { type: "INTEGER", notNull: true, default: "0", since: "cleanup-keeps-work", field: "uncommitted", bool: true, patch: true },
    commit_asked_session: { type: "INTEGER", since: "cleanup-keeps-work" },
    failure_json: { type: "TEXT", since: "lifecycle", note: "why the last run failed", field: "failure", json: { schema: FailureSchema, fallback: null }, patch: true },
    retry_at: { type: "INTEGER", since: "lifecycle", note: "when the next attempt starts", field: "retryAt", patch: true },
    attempt: { type: "INTEGER", notNull: true, default: "1", since: "lifecycle", field: "attempt", patch: true },
    budget_usd: { type: "REAL", since: "lifecycle", field: "budgetUsd", insert: "optional" },
    timeout_ms: { type: "INTEGER", since: "lifecycle", field: "timeoutMs", insert: "optional" },
    idle_timeout_ms: { type: "INTEGER", since: "lifecycle", field: "idleTimeoutMs", insert: "optional" },
    account_id: { type: "TEXT", since: "agent-account", note: "the user account it runs on", field: "accountId", insert: "optional", patch: true },
    attached_from: { type: "TEXT", since: "attached-from", note: "the status an attached agent returns to", field: "attachedFrom", patch: true },
    plan_json: { type: "TEXT", since: "agent-plan", note: "its plan as it last reported it (ACP plan updates)", field: "plan", json: { schema: z.array(PlanEntrySchema).nullable(), fallback: null }, patch: true },
    sandbox_json: { type: "TEXT", since: "agent-sandbox", note: "what its current session runs in (src/sandbox/)", field: "sandbox", json: { schema: AgentSandboxSchema.nullable(), fallback: null }, patch: true },
    pr_url: { type: "TEXT", since: "pull-requests", note: "its branch's pull request (troupe pr)", field: "prUrl", patch: true },
  },
  indexes: ["CREATE INDEX agents_parent ON agents(parent_id)", "CREATE INDEX agents_retry_at ON agents(retry_at) WHERE retry_at IS NOT NULL"],
} as const satisfies Table;

export const AGENT_SESSIONS = {
  name: "agent_sessions",
  note: "Each run of an agent: its process, its output files and how far they are stored.",
  columns: {
    agent_id: { type: "TEXT", notNull: true, references: "agents(id) ON DELETE CASCADE", field: "agentId", insert: "required" },
    session: { type: "INTEGER", notNull: true, field: "session", insert: "required" },
    pid: { type: "INTEGER", field: "pid" },
    pid_start: { type: "TEXT", field: "pidStart" },
    stdout_path: { type: "TEXT", notNull: true, field: "stdoutPath", insert: "required" },
    stderr_path: { type: "TEXT", notNull: true, field: "stderrPath", insert: "required" },
    exit_path: { type: "TEXT", notNull: true, field: "exitPath", insert: "required" },
    stdout_offset: { type: "INTEGER", notNull: true, default: "0", note: "since 22: as of when its agent's chunks moved on to another session; its newest chunk may say more", field: "stdoutOffset" },
    stderr_offset: { type: "INTEGER", notNull: true, default: "0", field: "stderrOffset" },
    started_at: { type: "INTEGER", notNull: true, field: "startedAt", insert: "set" },
    ended_at: { type: "INTEGER", field: "endedAt" },
    exit_code: { type: "INTEGER", field: "exitCode" },
    marker: { type: "TEXT", since: "stop-deadlines", note: "found in /proc/*/environ", field: "marker", insert: "required" },
    kill_at: { type: "INTEGER", since: "stop-deadlines", note: "the SIGKILL deadline of a stop under way", field: "killAt" },
    stop_signal: { type: "INTEGER", since: "stop-deadlines", field: "stopSignal" },
    signal_json: { type: "TEXT", since: "session-signal", note: "the signal the daemon recorded for the run (what its end takes)", field: "signalJson" },
    signal_from_file: { type: "INTEGER", notNull: true, default: "0", since: "session-signal", note: "a run open at the upgrade, read from its file", field: "signalFromFile", bool: true },
  },
  constraints: ["PRIMARY KEY (agent_id, session)"],
  indexes: ["CREATE INDEX agent_sessions_kill_at ON agent_sessions(kill_at) WHERE kill_at IS NOT NULL"],
} as const satisfies Table;

export const AGENT_LOG_CHUNKS = {
  name: "agent_log_chunks",
  note: "Stored output, whole lines, and each agent's total under its cap.",
  columns: {
    id: { type: "INTEGER", primaryKey: true, autoincrement: true },
    agent_id: { type: "TEXT", notNull: true, references: "agents(id) ON DELETE CASCADE" },
    session: { type: "INTEGER", notNull: true },
    stream: { type: "TEXT", notNull: true, note: "stdout, stderr, or troupe (troupe's own note: the cap's marker)" },
    data: { type: "TEXT", notNull: true },
    created_at: { type: "INTEGER", notNull: true },
    bytes: { type: "INTEGER", since: "output-cap", note: "null in rows from before it" },
    stdout_to: { type: "INTEGER", since: "offsets-in-chunks", note: "the session's files stored to this far, after this chunk" },
    stderr_to: { type: "INTEGER", since: "offsets-in-chunks" },
    appended: { type: "INTEGER", since: "offsets-in-chunks", note: "the agent's bytes appended in all, after this chunk (stored = appended - dropped)" },
  },
  indexes: ["CREATE INDEX agent_log_chunks_agent_bytes ON agent_log_chunks(agent_id, id, bytes)"],
} as const satisfies Table;

export const AGENT_OUTPUT = {
  name: "agent_output",
  columns: {
    agent_id: { type: "TEXT", primaryKey: true, references: "agents(id) ON DELETE CASCADE" },
    appended_bytes: { type: "INTEGER", notNull: true, default: "0", since: "offsets-in-chunks", was: "stored_bytes", note: "as of the last drop; newer chunks carry it" },
    dropped_bytes: { type: "INTEGER", notNull: true, default: "0" },
  },
} as const satisfies Table;

export const PORT_LEASES = {
  name: "port_leases",
  note: "Ports held by agents' worktrees (the config's `ports`), from the worktree's creation to its removal.",
  columns: {
    port: { type: "INTEGER", primaryKey: true, note: "held once: the key refuses a second lease" },
    agent_id: { type: "TEXT", notNull: true, note: "no foreign key: taken before the agent is recorded" },
    slot: { type: "INTEGER", notNull: true, note: "1 for PORT and TROUPE_PORT_1, 2 for TROUPE_PORT_2, ..." },
    leased_at: { type: "INTEGER", notNull: true },
  },
  indexes: ["CREATE INDEX port_leases_agent ON port_leases(agent_id, slot)"],
} as const satisfies Table;
