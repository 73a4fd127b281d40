import type { Database } from "../runtime/sqlite.ts";
import type { Initiative } from "../protocol/work.ts";
import { EntityColumns, type Covers, type NewOf, type PatchOf, type StoreWarnings } from "./entity.ts";
import { INITIATIVES } from "./tables/work.ts";

/** What the daemon keeps beyond what clients see: who proposed the pending goal. */
export interface InitiativeRecord extends Initiative {
  proposedGoalBy: string | null;
}

const COLUMNS = new EntityColumns(INITIATIVES);
// every field has its column but what it spent, summed from its agents
const covered: Covers<typeof INITIATIVES, InitiativeRecord, "spentUsd"> = true;
void covered;

/** What an insert takes (INITIATIVES: `insert`); an initiative starts active. */
export type NewInitiative = NewOf<typeof INITIATIVES, InitiativeRecord>;
/** What an update may change (INITIATIVES: `patch`); it always bumps the version. */
export type InitiativePatch = PatchOf<typeof INITIATIVES, InitiativeRecord>;

/** Every initiative column and what its agents spent, summed as it is read (always current). */
const SELECT = `SELECT ${COLUMNS.select("i")}, (SELECT COALESCE(SUM(a.cost_usd), 0) FROM agents a WHERE a.initiative_id = i.id) AS spentUsd FROM initiatives i`;

/** Initiatives; every change bumps `version` (the service publishes it as `initiative:updated`). */
export class InitiativeRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  private read(row: Record<string, unknown> | null): InitiativeRecord | null {
    if (!row) return null;
    COLUMNS.decode(row, `initiative ${row.slug}`, this.w);
    return row as unknown as InitiativeRecord;
  }

  insert(i: NewInitiative): InitiativeRecord {
    const now = Date.now();
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...i, status: "active", createdAt: now, updatedAt: now }));
    return this.get(i.id)!;
  }

  get(id: string): InitiativeRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE i.id = ?`).get(id) as Record<string, unknown> | null);
  }

  /** By id or slug. */
  find(ref: string): InitiativeRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE i.id = ?1 OR i.slug = ?1`).get(ref) as Record<string, unknown> | null);
  }

  list(): InitiativeRecord[] {
    return (this.db.query(`${SELECT} ORDER BY i.created_at, i.id`).all() as Record<string, unknown>[]).map((r) => this.read(r)!);
  }

  slugTaken(slug: string): boolean {
    return this.db.query("SELECT 1 FROM initiatives WHERE slug = ?").get(slug) !== null;
  }

  update(id: string, patch: InitiativePatch): InitiativeRecord {
    const { sets, values } = COLUMNS.assignments(patch);
    sets.push("version = version + 1", "updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE initiatives SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    return this.get(id)!;
  }
}

/** The public view: who proposed the goal stays in the daemon. */
export function toInitiative(rec: InitiativeRecord): Initiative {
  const { proposedGoalBy: _p, ...initiative } = rec;
  return initiative;
}
