import type { Database } from "../runtime/sqlite.ts";
import type { Phase } from "../protocol/work.ts";
import { EntityColumns, type Covers, type NewOf, type PatchOf, type StoreWarnings } from "./entity.ts";
import { PHASES } from "./tables/work.ts";
import { DepsTable } from "./work-deps.ts";

/** What the daemon keeps beyond what clients see: whether its proposer was asked to propose it again. */
export interface PhaseRecord extends Phase {
  revise: boolean;
}

const COLUMNS = new EntityColumns(PHASES);
// every field has its column but its dependencies, edges in phase_deps
const covered: Covers<typeof PHASES, PhaseRecord, "dependsOn"> = true;
void covered;
const SELECT = COLUMNS.select("p");

/** What an insert takes (PHASES: `insert`), and its dependencies. */
export type NewPhase = NewOf<typeof PHASES, PhaseRecord> & Pick<Phase, "dependsOn">;
/** What an update may change (PHASES: `patch`), and its dependencies; it always bumps the version. */
export type PhasePatch = PatchOf<typeof PHASES, PhaseRecord> & Partial<Pick<Phase, "dependsOn">>;

export function toPhase(rec: PhaseRecord): Phase {
  const { revise: _r, ...phase } = rec;
  return phase;
}

/** Phases and their dependency edges; every change bumps `version`. Callers hold the transaction. */
export class PhaseRepo {
  private readonly deps: DepsTable;

  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {
    this.deps = new DepsTable(db, "phase_deps", "phase_id");
  }

  private read(row: Record<string, unknown>, dependsOn: string[]): PhaseRecord {
    COLUMNS.decode(row, `phase ${row.slug}`, this.w);
    row.dependsOn = dependsOn;
    return row as unknown as PhaseRecord;
  }

  insert(p: NewPhase): PhaseRecord {
    const now = Date.now();
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...p, createdAt: now, updatedAt: now }));
    this.deps.set(p.id, p.dependsOn);
    return this.get(p.id)!;
  }

  get(id: string): PhaseRecord | null {
    const row = this.db.query(`SELECT ${SELECT} FROM phases p WHERE id = ?`).get(id) as Record<string, unknown> | null;
    return row && this.read(row, this.deps.of(id));
  }

  /** By id, or `<initiative-slug>/<slug>`. */
  find(ref: string): PhaseRecord | null {
    const slash = ref.indexOf("/");
    if (slash < 0) return this.get(ref);
    const row = this.db
      .query(`SELECT ${SELECT} FROM phases p JOIN initiatives i ON i.id = p.initiative_id WHERE i.slug = ? AND p.slug = ?`)
      .get(ref.slice(0, slash), ref.slice(slash + 1)) as Record<string, unknown> | null;
    return row && this.read(row, this.deps.of(row.id as string));
  }

  /** An initiative's phases, oldest first. */
  list(initiativeId: string): PhaseRecord[] {
    const rows = this.db.query(`SELECT ${SELECT} FROM phases p WHERE initiative_id = ? ORDER BY created_at, rowid`).all(initiativeId) as Record<string, unknown>[];
    const deps = this.deps.ofMany("SELECT id FROM phases WHERE initiative_id = ?", initiativeId);
    return rows.map((r) => this.read(r, deps.get(r.id as string) ?? []));
  }

  update(id: string, patch: PhasePatch): PhaseRecord {
    const { dependsOn, ...columns } = patch;
    const { sets, values } = COLUMNS.assignments(columns);
    sets.push("version = version + 1", "updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE phases SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    if (dependsOn) this.deps.set(id, dependsOn);
    return this.get(id)!;
  }

  /** Forgets a phase, its tasks and every edge to or from it (cascade). */
  delete(id: string): void {
    this.db.query("DELETE FROM phases WHERE id = ?").run(id);
  }
}
