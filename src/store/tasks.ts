import type { Database } from "../runtime/sqlite.ts";
import type { Task } from "../protocol/work.ts";
import { EntityColumns, type Covers, type NewOf, type PatchOf, type StoreWarnings } from "./entity.ts";
import { TASKS } from "./tables/work.ts";
import { DepsTable } from "./work-deps.ts";

/**
 * What the daemon keeps beyond what clients see: whether its proposer was asked to propose it
 * again, and dispatch's state (the merge commit that brought it in; the session of its agent
 * asked to resolve a merge conflict).
 */
export interface TaskRecord extends Task {
  revise: boolean;
  mergeCommit: string | null;
  resolveSession: number | null;
  /** Its agent's name on the remote host it was placed on (`host`), chosen when it was claimed. */
  hostAgent: string | null;
}

const COLUMNS = new EntityColumns(TASKS);
// every field has its column but its dependencies, edges in task_deps
const covered: Covers<typeof TASKS, TaskRecord, "dependsOn"> = true;
void covered;
const SELECT = COLUMNS.select("t");

/** What an insert takes (TASKS: `insert`), and its dependencies. */
export type NewTask = NewOf<typeof TASKS, TaskRecord> & Pick<Task, "dependsOn">;
/** What an update may change (TASKS: `patch`), and its dependencies; it always bumps the version. */
export type TaskPatch = PatchOf<typeof TASKS, TaskRecord> & Partial<Pick<Task, "dependsOn">>;

export function toTask(rec: TaskRecord): Task {
  const { revise: _r, mergeCommit: _m, resolveSession: _s, hostAgent: _h, ...task } = rec;
  return task;
}

/** Tasks and their dependency edges; every change bumps `version`. Callers hold the transaction. */
export class TaskRepo {
  private readonly deps: DepsTable;

  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {
    this.deps = new DepsTable(db, "task_deps", "task_id");
  }

  private read(row: Record<string, unknown>, dependsOn: string[]): TaskRecord {
    COLUMNS.decode(row, `task ${row.slug}`, this.w);
    row.dependsOn = dependsOn;
    return row as unknown as TaskRecord;
  }

  insert(t: NewTask): TaskRecord {
    const now = Date.now();
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...t, createdAt: now, updatedAt: now }));
    this.deps.set(t.id, t.dependsOn);
    return this.get(t.id)!;
  }

  get(id: string): TaskRecord | null {
    const row = this.db.query(`SELECT ${SELECT} FROM tasks t WHERE id = ?`).get(id) as Record<string, unknown> | null;
    return row && this.read(row, this.deps.of(id));
  }

  /** By id, `<initiative-slug>/<slug>` (task slugs are unique in their initiative) or `<initiative-slug>/<phase-slug>/<slug>`. */
  find(ref: string): TaskRecord | null {
    const parts = ref.split("/");
    let row: Record<string, unknown> | null;
    if (parts.length === 1) return this.get(ref);
    if (parts.length === 2) {
      row = this.db
        .query(`SELECT ${SELECT} FROM tasks t JOIN initiatives i ON i.id = t.initiative_id WHERE i.slug = ? AND t.slug = ?`)
        .get(parts[0]!, parts[1]!) as Record<string, unknown> | null;
    } else if (parts.length === 3) {
      row = this.db
        .query(
          `SELECT ${SELECT} FROM tasks t JOIN phases p ON p.id = t.phase_id JOIN initiatives i ON i.id = t.initiative_id
           WHERE i.slug = ? AND p.slug = ? AND t.slug = ?`,
        )
        .get(parts[0]!, parts[1]!, parts[2]!) as Record<string, unknown> | null;
    } else return null;
    return row && this.read(row, this.deps.of(row.id as string));
  }

  /** A phase's tasks, oldest first. */
  listByPhase(phaseId: string): TaskRecord[] {
    const rows = this.db.query(`SELECT ${SELECT} FROM tasks t WHERE phase_id = ? ORDER BY created_at, rowid`).all(phaseId) as Record<string, unknown>[];
    const deps = this.deps.ofMany("SELECT id FROM tasks WHERE phase_id = ?", phaseId);
    return rows.map((r) => this.read(r, deps.get(r.id as string) ?? []));
  }

  /** An initiative's tasks, oldest first. */
  listByInitiative(initiativeId: string): TaskRecord[] {
    const rows = this.db.query(`SELECT ${SELECT} FROM tasks t WHERE initiative_id = ? ORDER BY created_at, rowid`).all(initiativeId) as Record<string, unknown>[];
    const deps = this.deps.ofMany("SELECT id FROM tasks WHERE initiative_id = ?", initiativeId);
    return rows.map((r) => this.read(r, deps.get(r.id as string) ?? []));
  }

  update(id: string, patch: TaskPatch): TaskRecord {
    const { dependsOn, ...columns } = patch;
    const { sets, values } = COLUMNS.assignments(columns);
    sets.push("version = version + 1", "updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE tasks SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    if (dependsOn) this.deps.set(id, dependsOn);
    return this.get(id)!;
  }

  /** Forgets a task and every edge to or from it (cascade). */
  delete(id: string): void {
    this.db.query("DELETE FROM tasks WHERE id = ?").run(id);
  }
}
