import type { Database } from "../runtime/sqlite.ts";

/**
 * The edges of one dependency table (`phase_deps`, `task_deps`): item → the items it depends on.
 * Kept in their own rows so that removing an item removes the edges to it (ON DELETE CASCADE).
 */
export class DepsTable {
  constructor(
    private readonly db: Database,
    private readonly table: "phase_deps" | "task_deps",
    private readonly column: "phase_id" | "task_id",
  ) {}

  of(id: string): string[] {
    const rows = this.db.query(`SELECT depends_on FROM ${this.table} WHERE ${this.column} = ? ORDER BY rowid`).all(id) as { depends_on: string }[];
    return rows.map((r) => r.depends_on);
  }

  /** Every edge whose item `inParent` selects (a subquery over `?`), grouped by item. */
  ofMany(itemsSql: string, param: string): Map<string, string[]> {
    const rows = this.db
      .query(`SELECT ${this.column} AS id, depends_on FROM ${this.table} WHERE ${this.column} IN (${itemsSql}) ORDER BY rowid`)
      .all(param) as { id: string; depends_on: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) {
      const list = out.get(r.id);
      if (list) list.push(r.depends_on);
      else out.set(r.id, [r.depends_on]);
    }
    return out;
  }

  set(id: string, deps: string[]): void {
    this.db.query(`DELETE FROM ${this.table} WHERE ${this.column} = ?`).run(id);
    const add = this.db.query(`INSERT INTO ${this.table} (${this.column}, depends_on) VALUES (?, ?)`);
    for (const d of deps) add.run(id, d);
  }
}
