import type { Database } from "../runtime/sqlite.ts";
import type { Flow } from "../protocol/flow.ts";
import { EntityColumns, type Covers, type NewOf, type StoreWarnings } from "./entity.ts";
import { FLOWS } from "./tables/work.ts";

const COLUMNS = new EntityColumns(FLOWS);
// every field of a flow has its column
const covered: Covers<typeof FLOWS, Flow> = true;
void covered;
const SELECT = `SELECT ${COLUMNS.select()} FROM flows`;

/** What an insert takes (FLOWS: `insert`); a flow starts enabled. */
export type FlowInsert = NewOf<typeof FLOWS, Flow>;

/** Scheduled flows (migration 13). */
export class FlowRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  list(): Flow[] {
    return (this.db.query(`${SELECT} ORDER BY name`).all() as Record<string, unknown>[]).map((r) => this.read(r));
  }

  find(ref: string): Flow | null {
    const r = this.db.query(`${SELECT} WHERE name = ? OR id = ?`).get(ref, ref) as Record<string, unknown> | null;
    return r && this.read(r);
  }

  insert(f: FlowInsert): Flow {
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...f, enabled: true, createdAt: Date.now() }));
    return this.find(f.id)!;
  }

  private read(row: Record<string, unknown>): Flow {
    COLUMNS.decode(row, `flow ${row.name}`, this.w);
    return row as unknown as Flow;
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
