import type { Database } from "../runtime/sqlite.ts";
import type { Flow } from "../protocol/flow.ts";

interface FlowRow {
  id: string;
  name: string;
  cron: string;
  profile: string | null;
  provider: string | null;
  prompt: string;
  gate: string | null;
  enabled: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_agent_id: string | null;
  last_outcome: string | null;
  created_at: number;
}

const toFlow = (r: FlowRow): Flow => ({
  id: r.id,
  name: r.name,
  cron: r.cron,
  profile: r.profile,
  provider: r.provider,
  prompt: r.prompt,
  gate: r.gate,
  enabled: r.enabled === 1,
  nextRunAt: r.next_run_at,
  lastRunAt: r.last_run_at,
  lastAgentId: r.last_agent_id,
  lastOutcome: r.last_outcome,
  createdAt: r.created_at,
});

export type FlowInsert = Pick<Flow, "id" | "name" | "cron" | "profile" | "provider" | "prompt" | "gate" | "nextRunAt">;

/** Scheduled flows (migration 13). */
export class FlowRepo {
  constructor(private readonly db: Database) {}

  list(): Flow[] {
    return (this.db.query("SELECT * FROM flows ORDER BY name").all() as FlowRow[]).map(toFlow);
  }

  find(ref: string): Flow | null {
    const r = this.db.query("SELECT * FROM flows WHERE name = ? OR id = ?").get(ref, ref) as FlowRow | null;
    return r && toFlow(r);
  }

  insert(f: FlowInsert): Flow {
    this.db
      .query("INSERT INTO flows (id, name, cron, profile, provider, prompt, gate, enabled, next_run_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)")
      .run(f.id, f.name, f.cron, f.profile, f.provider, f.prompt, f.gate, f.nextRunAt, Date.now());
    return this.find(f.id)!;
  }

  remove(id: string): void {
    this.db.query("DELETE FROM flows WHERE id = ?").run(id);
  }

  setEnabled(id: string, enabled: boolean, nextRunAt: number | null): Flow {
    this.db.query("UPDATE flows SET enabled = ?, next_run_at = ? WHERE id = ?").run(enabled ? 1 : 0, nextRunAt, id);
    return this.find(id)!;
  }

  setNext(id: string, nextRunAt: number | null): void {
    this.db.query("UPDATE flows SET next_run_at = ? WHERE id = ?").run(nextRunAt, id);
  }

  /** A run's outcome; `agentId` only when it started one (a skip keeps the last agent, for the overlap check). */
  recordRun(id: string, at: number, outcome: string, agentId: string | null): Flow {
    this.db
      .query("UPDATE flows SET last_run_at = ?, last_outcome = ?, last_agent_id = COALESCE(?, last_agent_id) WHERE id = ?")
      .run(at, outcome, agentId, id);
    return this.find(id)!;
  }

  anyEnabled(): boolean {
    return this.db.query("SELECT 1 FROM flows WHERE enabled = 1 LIMIT 1").get() !== null;
  }
}
