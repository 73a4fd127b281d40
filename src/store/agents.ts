import type { Database } from "../runtime/sqlite.ts";
import { z } from "zod";
import { QuestionSchema, type Agent, type AgentStatus, type Question } from "../protocol/entities.ts";
import { FailureSchema, type Failure } from "../protocol/failure.ts";
import type { PermissionMode } from "../protocol/permission-modes.ts";
import type { AgentMode } from "../protocol/work.ts";

interface AgentRow {
  id: string;
  name: string;
  provider: string;
  status: AgentStatus;
  prompt: string | null;
  command: string | null;
  model: string | null;
  cwd: string;
  worktree: string | null;
  branch: string | null;
  base_ref: string | null;
  permissions: PermissionMode;
  token_hash: string;
  signal_file: string;
  session: number;
  provider_session_id: string | null;
  result: string | null;
  error: string | null;
  questions_json: string | null;
  exit_code: number | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  mode: AgentMode | null;
  initiative_id: string | null;
  task_id: string | null;
  phase_id: string | null;
  created_at: number;
  updated_at: number;
  last_activity_at: number | null;
  parent_id: string | null;
  uncommitted: number;
  failure_json: string | null;
  retry_at: number | null;
  attempt: number;
  budget_usd: number | null;
  timeout_ms: number | null;
  idle_timeout_ms: number | null;
  account_id: string | null;
  attached_from: AgentStatus | null;
}

/**
 * What the daemon keeps of an agent beyond what clients see. Not its environment: that holds API
 * keys and lives in its own 0600 file (src/agents/files/saved-env.ts), never in this store.
 */
export interface AgentRecord extends Agent {
  signalFile: string;
  pid: number | null;
  /** Per-run limits (ms); null: the workspace config's. */
  timeoutMs: number | null;
  idleTimeoutMs: number | null;
  /** While `attached`: the status it returns to when the person's interactive CLI exits. */
  attachedFrom: AgentStatus | null;
}

const Questions = z.array(QuestionSchema);
const LegacyEnv = z.record(z.string(), z.string()).nullable();

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

function fromRow(r: JoinedRow, pid: number | null, w: StoreWarnings): AgentRecord {
  return {
    id: r.id,
    name: r.name,
    provider: r.provider,
    status: r.status,
    prompt: r.prompt,
    command: r.command,
    model: r.model,
    cwd: r.cwd,
    worktree: r.worktree,
    branch: r.branch,
    baseRef: r.base_ref,
    pid,
    session: r.session,
    providerSessionId: r.provider_session_id,
    result: r.result,
    error: r.error,
    questions: r.questions_json === null ? null : parseJson<Question[]>(Questions, r.questions_json, [], `agent ${r.name}'s questions`, w),
    exitCode: r.exit_code,
    costUsd: r.cost_usd,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    mode: r.mode,
    initiativeId: r.initiative_id,
    taskId: r.task_id,
    phaseId: r.phase_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastActivityAt: r.last_activity_at,
    parentId: r.parent_id,
    uncommitted: r.uncommitted === 1,
    permissions: r.permissions,
    signalFile: r.signal_file,
    failure: r.failure_json === null ? null : parseJson<Failure | null>(FailureSchema, r.failure_json, null, `agent ${r.name}'s failure`, w),
    retryAt: r.retry_at,
    attempt: r.attempt,
    budgetUsd: r.budget_usd,
    timeoutMs: r.timeout_ms,
    idleTimeoutMs: r.idle_timeout_ms,
    accountId: r.account_id,
    attachedFrom: r.attached_from,
    pendingPermissions: r.pending_permissions,
  };
}

/** The public view: no signal file path. */
export function toAgent(rec: AgentRecord): Agent {
  const { signalFile: _s, timeoutMs: _t, idleTimeoutMs: _i, attachedFrom: _a, ...agent } = rec;
  return agent;
}

export interface NewAgent {
  id: string;
  name: string;
  provider: string;
  prompt: string | null;
  command: string | null;
  model: string | null;
  cwd: string;
  worktree: string | null;
  branch: string | null;
  baseRef: string | null;
  permissions: PermissionMode;
  tokenHash: string;
  signalFile: string;
  /** The agent that spawned it; none when the person did. */
  parentId?: string | null;
  /** A work-model run: its mode and what it works on (src/work/). */
  mode?: AgentMode | null;
  initiativeId?: string | null;
  phaseId?: string | null;
  taskId?: string | null;
  budgetUsd?: number | null;
  timeoutMs?: number | null;
  idleTimeoutMs?: number | null;
  /** The user account it runs on (null: the spawning environment's credential). */
  accountId?: string | null;
}

export interface OutputContext {
  provider: string;
  providerSessionId: string | null;
  costUsd: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export type AgentPatch = Partial<{
  status: AgentStatus;
  session: number;
  providerSessionId: string | null;
  result: string | null;
  error: string | null;
  questions: Question[] | null;
  exitCode: number | null;
  costUsd: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  lastActivityAt: number | null;
  uncommitted: boolean;
  failure: Failure | null;
  retryAt: number | null;
  attempt: number;
  accountId: string | null;
  attachedFrom: AgentStatus | null;
}>;

const PATCH_COLUMNS: Record<keyof AgentPatch, string> = {
  status: "status",
  session: "session",
  providerSessionId: "provider_session_id",
  result: "result",
  error: "error",
  questions: "questions_json",
  exitCode: "exit_code",
  costUsd: "cost_usd",
  inputTokens: "input_tokens",
  outputTokens: "output_tokens",
  lastActivityAt: "last_activity_at",
  uncommitted: "uncommitted",
  failure: "failure_json",
  retryAt: "retry_at",
  attempt: "attempt",
  accountId: "account_id",
  attachedFrom: "attached_from",
};

// pending permission requests counted as the row is read: always current, never stored twice
const SELECT = `SELECT a.*, s.pid AS live_pid,
  (SELECT COUNT(*) FROM permission_requests p WHERE p.agent_id = a.id AND p.status = 'pending') AS pending_permissions
  FROM agents a
  LEFT JOIN agent_sessions s ON s.agent_id = a.id AND s.session = a.session AND s.ended_at IS NULL`;

type JoinedRow = AgentRow & { live_pid: number | null; pending_permissions: number };

export class AgentRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  insert(a: NewAgent): AgentRecord {
    const now = Date.now();
    this.db
      .query(
        `INSERT INTO agents (id, name, provider, status, prompt, command, model, cwd, worktree, branch, base_ref,
           permissions, token_hash, signal_file, parent_id, mode, initiative_id, phase_id, task_id,
           budget_usd, timeout_ms, idle_timeout_ms, account_id, created_at, updated_at)
         VALUES (?, ?, ?, 'starting', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(a.id, a.name, a.provider, a.prompt, a.command, a.model, a.cwd, a.worktree, a.branch, a.baseRef,
        a.permissions, a.tokenHash, a.signalFile, a.parentId ?? null, a.mode ?? null, a.initiativeId ?? null,
        a.phaseId ?? null, a.taskId ?? null, a.budgetUsd ?? null, a.timeoutMs ?? null, a.idleTimeoutMs ?? null, a.accountId ?? null, now, now);
    return this.get(a.id)!;
  }

  get(id: string): AgentRecord | null {
    const row = this.db.query(`${SELECT} WHERE a.id = ?`).get(id) as JoinedRow | null;
    return row ? fromRow(row, row.live_pid, this.w) : null;
  }

  /** By id, or by name. */
  find(ref: string): AgentRecord | null {
    const row = this.db.query(`${SELECT} WHERE a.id = ? OR a.name = ?`).get(ref, ref) as JoinedRow | null;
    return row ? fromRow(row, row.live_pid, this.w) : null;
  }

  byTokenHash(hash: string): AgentRecord | null {
    const row = this.db.query(`${SELECT} WHERE a.token_hash = ?`).get(hash) as JoinedRow | null;
    return row ? fromRow(row, row.live_pid, this.w) : null;
  }

  list(): AgentRecord[] {
    return (this.db.query(`${SELECT} ORDER BY a.created_at, a.id`).all() as JoinedRow[]).map((r) => fromRow(r, r.live_pid, this.w));
  }

  /** The few fields output parsing needs, without decoding the whole row (called per chunk). */
  outputContext(id: string): OutputContext | null {
    return this.db
      .query(
        `SELECT provider, provider_session_id AS providerSessionId, cost_usd AS costUsd,
           input_tokens AS inputTokens, output_tokens AS outputTokens FROM agents WHERE id = ?`,
      )
      .get(id) as OutputContext | null;
  }

  /**
   * Records agents' activity times, all in one transaction, without reading them back (output
   * streams in; see src/agents/sessions/activity-times.ts). A time never moves an agent's back:
   * an update written meanwhile (a launch, an end) may carry a later one.
   */
  touch(times: ReadonlyMap<string, number>): void {
    if (!times.size) return;
    const stmt = this.db.query("UPDATE agents SET last_activity_at = MAX(COALESCE(last_activity_at, 0), ?), updated_at = ? WHERE id = ?");
    this.db.transaction(() => {
      const now = Date.now();
      for (const [id, at] of times) stmt.run(at, now, id);
    })();
  }

  /**
   * Forgets the agent, its sessions and its output (cascade). Its children pass to its parent,
   * so whoever started it keeps authority over what it started.
   */
  delete(id: string): void {
    this.db.transaction(() => {
      this.db.query("UPDATE agents SET parent_id = (SELECT parent_id FROM agents WHERE id = ?1) WHERE parent_id = ?1").run(id);
      this.db.query("DELETE FROM agents WHERE id = ?").run(id);
      // no foreign keys on these (added later): gone with their agent by hand
      this.db.query("DELETE FROM permission_requests WHERE agent_id = ?").run(id);
      this.db.query("DELETE FROM agent_permission_rules WHERE agent_id = ?").run(id);
    })();
  }

  /** The session that was asked to commit what the agent left uncommitted (it is asked once per end). */
  commitAskedSession(id: string): number | null {
    const row = this.db.query("SELECT commit_asked_session AS s FROM agents WHERE id = ?").get(id) as { s: number | null } | null;
    return row?.s ?? null;
  }

  setCommitAskedSession(id: string, session: number): void {
    this.db.query("UPDATE agents SET commit_asked_session = ? WHERE id = ?").run(session, id);
  }

  /** The agent that spawned `id`, or null (the person did, or no such agent). */
  parentOf(id: string): string | null {
    const row = this.db.query("SELECT parent_id FROM agents WHERE id = ?").get(id) as { parent_id: string | null } | null;
    return row?.parent_id ?? null;
  }

  setTokenHash(id: string, hash: string): void {
    this.db.query("UPDATE agents SET token_hash = ? WHERE id = ?").run(hash, id);
  }

  nameTaken(name: string): boolean {
    return this.db.query("SELECT 1 FROM agents WHERE name = ?").get(name) !== null;
  }

  /**
   * Environments a troupe before schema 6 kept in `env_json` (marked `legacy_env` by that
   * migration), still to be moved to their files. A malformed one reads as null: unrecoverable.
   */
  legacyEnvs(): { id: string; name: string; env: Record<string, string> | null }[] {
    const rows = this.db.query("SELECT id, name, env_json FROM agents WHERE legacy_env = 1").all() as { id: string; name: string; env_json: string }[];
    return rows.map((r) => ({ id: r.id, name: r.name, env: parseJson(LegacyEnv, r.env_json, null, `agent ${r.name}'s stored environment`, this.w) }));
  }

  /** Blanks moved environments (the caller scrubs the freed bytes from the file). */
  clearLegacyEnvs(ids: string[]): void {
    const clear = this.db.query("UPDATE agents SET env_json = '{}', legacy_env = 0 WHERE id = ?");
    this.db.transaction(() => {
      for (const id of ids) clear.run(id);
    })();
  }

  /** The nearest pending retry (epoch ms), or null. */
  nextRetryAt(): number | null {
    const row = this.db.query("SELECT MIN(retry_at) AS at FROM agents WHERE retry_at IS NOT NULL").get() as { at: number | null };
    return row.at;
  }

  /** Agents whose retry is due by `now`. */
  retryDue(now: number): string[] {
    return (this.db.query("SELECT id FROM agents WHERE retry_at IS NOT NULL AND retry_at <= ? ORDER BY retry_at").all(now) as { id: string }[]).map((r) => r.id);
  }

  update(id: string, patch: AgentPatch): AgentRecord {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof AgentPatch, AgentPatch[keyof AgentPatch]][]) {
      if (value === undefined) continue;
      sets.push(`${PATCH_COLUMNS[key]} = ?`);
      const json = key === "questions" || key === "failure";
      values.push(json ? (value === null ? null : JSON.stringify(value)) : typeof value === "boolean" ? Number(value) : (value as string | number | null));
    }
    sets.push("updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE agents SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    return this.get(id)!;
  }
}
