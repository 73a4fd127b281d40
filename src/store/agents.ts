import type { Database } from "../runtime/sqlite.ts";
import { z } from "zod";
import type { Agent, AgentStatus } from "../protocol/entities.ts";
import { EntityColumns, parseJson, type Covers, type NewOf, type PatchOf, type StoreWarnings } from "./entity.ts";
import { AGENTS } from "./tables/agents.ts";

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

/** What the record holds beyond its columns: the live session's pid, the pending permission requests, the ports it holds. */
type Computed = "pid" | "pendingPermissions" | "ports";
/** The record and the fields only written (its token's hash). */
type Written = AgentRecord & { tokenHash: string };

// Every field of the record has its column in AGENTS, and every column's field is one of the record's (or written only).
const covered: Covers<typeof AGENTS, AgentRecord, Computed, Written> = true;
void covered;

/** What an insert takes (AGENTS says which fields: `insert`); the agent starts `starting`. */
export type NewAgent = NewOf<typeof AGENTS, Written>;
/** What an update may change (AGENTS: `patch`); it always moves updated_at. */
export type AgentPatch = PatchOf<typeof AGENTS, AgentRecord>;

const LegacyEnv = z.record(z.string(), z.string()).nullable();

const COLUMNS = new EntityColumns(AGENTS);

/** The public view: no signal file path. */
export function toAgent(rec: AgentRecord): Agent {
  const { signalFile: _s, timeoutMs: _t, idleTimeoutMs: _i, attachedFrom: _a, ...agent } = rec;
  return agent;
}

const OUTPUT_CONTEXT = ["provider", "providerSessionId", "costUsd", "inputTokens", "outputTokens"] as const satisfies readonly (keyof AgentRecord)[];
export type OutputContext = Pick<AgentRecord, (typeof OUTPUT_CONTEXT)[number]>;

// pending permission requests counted as the row is read: always current, never stored twice
const SELECT = `SELECT ${COLUMNS.select("a")}, s.pid AS pid,
  (SELECT COUNT(*) FROM permission_requests p WHERE p.agent_id = a.id AND p.status = 'pending') AS pendingPermissions,
  (SELECT group_concat(port) FROM (SELECT port FROM port_leases l WHERE l.agent_id = a.id ORDER BY l.slot)) AS ports
  FROM agents a
  LEFT JOIN agent_sessions s ON s.agent_id = a.id AND s.session = a.session AND s.ended_at IS NULL`;

export class AgentRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  insert(a: NewAgent): AgentRecord {
    const now = Date.now();
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...a, status: "starting", createdAt: now, updatedAt: now }));
    return this.get(a.id)!;
  }

  private read(row: Record<string, unknown> | null): AgentRecord | null {
    if (!row) return null;
    COLUMNS.decode(row, `agent ${row.name}`, this.w);
    row.ports = typeof row.ports === "string" ? row.ports.split(",").map(Number) : [];
    return row as unknown as AgentRecord;
  }

  get(id: string): AgentRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE a.id = ?`).get(id) as Record<string, unknown> | null);
  }

  /** By id, or by name. */
  find(ref: string): AgentRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE a.id = ? OR a.name = ?`).get(ref, ref) as Record<string, unknown> | null);
  }

  byTokenHash(hash: string): AgentRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE a.token_hash = ?`).get(hash) as Record<string, unknown> | null);
  }

  list(): AgentRecord[] {
    return (this.db.query(`${SELECT} ORDER BY a.created_at, a.id`).all() as Record<string, unknown>[]).map((r) => this.read(r)!);
  }

  /** The few fields output parsing needs, without decoding the whole row (called per chunk). */
  outputContext(id: string): OutputContext | null {
    return this.db.query(`SELECT ${COLUMNS.select(undefined, OUTPUT_CONTEXT)} FROM agents WHERE id = ?`).get(id) as OutputContext | null;
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
      // its worktree goes with it: so do the ports it held
      this.db.query("DELETE FROM port_leases WHERE agent_id = ?").run(id);
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
    const { sets, values } = COLUMNS.assignments(patch);
    sets.push("updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE agents SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    return this.get(id)!;
  }
}
