import type { Database } from "../runtime/sqlite.ts";
import type { Phase, PhaseStatus } from "../protocol/work.ts";
import { DepsTable } from "./work-deps.ts";

interface Row {
  id: string;
  initiative_id: string;
  slug: string;
  title: string;
  content: string;
  status: PhaseStatus;
  proposed_by: string | null;
  reason: string | null;
  revise: number;
  version: number;
  created_at: number;
  updated_at: number;
}

/** What the daemon keeps beyond what clients see: whether its proposer was asked to propose it again. */
export interface PhaseRecord extends Phase {
  revise: boolean;
}

export type NewPhase = Pick<Phase, "id" | "initiativeId" | "slug" | "title" | "content" | "status" | "proposedBy" | "dependsOn">;

export type PhasePatch = Partial<{
  title: string;
  content: string;
  status: PhaseStatus;
  proposedBy: string | null;
  reason: string | null;
  revise: boolean;
  dependsOn: string[];
}>;

const COLUMNS: Record<Exclude<keyof PhasePatch, "dependsOn">, string> = {
  title: "title",
  content: "content",
  status: "status",
  proposedBy: "proposed_by",
  reason: "reason",
  revise: "revise",
};

const fromRow = (r: Row, dependsOn: string[]): PhaseRecord => ({
  id: r.id,
  initiativeId: r.initiative_id,
  slug: r.slug,
  title: r.title,
  content: r.content,
  status: r.status,
  dependsOn,
  proposedBy: r.proposed_by,
  reason: r.reason,
  revise: r.revise === 1,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function toPhase(rec: PhaseRecord): Phase {
  const { revise: _r, ...phase } = rec;
  return phase;
}

/** Phases and their dependency edges; every change bumps `version`. Callers hold the transaction. */
export class PhaseRepo {
  private readonly deps: DepsTable;

  constructor(private readonly db: Database) {
    this.deps = new DepsTable(db, "phase_deps", "phase_id");
  }

  insert(p: NewPhase): PhaseRecord {
    const now = Date.now();
    this.db
      .query(
        `INSERT INTO phases (id, initiative_id, slug, title, content, status, proposed_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(p.id, p.initiativeId, p.slug, p.title, p.content, p.status, p.proposedBy, now, now);
    this.deps.set(p.id, p.dependsOn);
    return this.get(p.id)!;
  }

  get(id: string): PhaseRecord | null {
    const row = this.db.query("SELECT * FROM phases WHERE id = ?").get(id) as Row | null;
    return row ? fromRow(row, this.deps.of(id)) : null;
  }

  /** By id, or `<initiative-slug>/<slug>`. */
  find(ref: string): PhaseRecord | null {
    const slash = ref.indexOf("/");
    if (slash < 0) return this.get(ref);
    const row = this.db
      .query("SELECT p.* FROM phases p JOIN initiatives i ON i.id = p.initiative_id WHERE i.slug = ? AND p.slug = ?")
      .get(ref.slice(0, slash), ref.slice(slash + 1)) as Row | null;
    return row ? fromRow(row, this.deps.of(row.id)) : null;
  }

  /** An initiative's phases, oldest first. */
  list(initiativeId: string): PhaseRecord[] {
    const rows = this.db.query("SELECT * FROM phases WHERE initiative_id = ? ORDER BY created_at, rowid").all(initiativeId) as Row[];
    const deps = this.deps.ofMany("SELECT id FROM phases WHERE initiative_id = ?", initiativeId);
    return rows.map((r) => fromRow(r, deps.get(r.id) ?? []));
  }

  update(id: string, patch: PhasePatch): PhaseRecord {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof PhasePatch, PhasePatch[keyof PhasePatch]][]) {
      if (value === undefined || key === "dependsOn") continue;
      sets.push(`${COLUMNS[key]} = ?`);
      values.push(typeof value === "boolean" ? Number(value) : (value as string | null));
    }
    sets.push("version = version + 1", "updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE phases SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    if (patch.dependsOn) this.deps.set(id, patch.dependsOn);
    return this.get(id)!;
  }

  /** Forgets a phase, its tasks and every edge to or from it (cascade). */
  delete(id: string): void {
    this.db.query("DELETE FROM phases WHERE id = ?").run(id);
  }
}
