import type { Database } from "../runtime/sqlite.ts";
import { z } from "zod";
import type { Task, TaskStatus } from "../protocol/work.ts";
import { parseJson, type StoreWarnings } from "./entity.ts";
import { DepsTable } from "./work-deps.ts";

interface Row {
  id: string;
  initiative_id: string;
  phase_id: string;
  slug: string;
  title: string;
  description: string;
  status: TaskStatus;
  proposed_by: string | null;
  agent_id: string | null;
  branch: string | null;
  summary: string | null;
  reason: string | null;
  conflicts_json: string | null;
  merged_at: number | null;
  merge_commit: string | null;
  resolve_session: number | null;
  revise: number;
  version: number;
  created_at: number;
  updated_at: number;
}

/**
 * What the daemon keeps beyond what clients see: whether its proposer was asked to propose it
 * again, and dispatch's state (the merge commit that brought it in; the session of its agent
 * asked to resolve a merge conflict).
 */
export interface TaskRecord extends Task {
  revise: boolean;
  mergeCommit: string | null;
  resolveSession: number | null;
}

export type NewTask = Pick<Task, "id" | "initiativeId" | "phaseId" | "slug" | "title" | "description" | "status" | "proposedBy" | "dependsOn">;

export type TaskPatch = Partial<{
  title: string;
  description: string;
  status: TaskStatus;
  proposedBy: string | null;
  agentId: string | null;
  branch: string | null;
  summary: string | null;
  reason: string | null;
  conflicts: string[] | null;
  mergedAt: number | null;
  mergeCommit: string | null;
  resolveSession: number | null;
  revise: boolean;
  dependsOn: string[];
}>;

const COLUMNS: Record<Exclude<keyof TaskPatch, "dependsOn">, string> = {
  title: "title",
  description: "description",
  status: "status",
  proposedBy: "proposed_by",
  agentId: "agent_id",
  branch: "branch",
  summary: "summary",
  reason: "reason",
  conflicts: "conflicts_json",
  mergedAt: "merged_at",
  mergeCommit: "merge_commit",
  resolveSession: "resolve_session",
  revise: "revise",
};

const Conflicts = z.array(z.string()).nullable();

export function toTask(rec: TaskRecord): Task {
  const { revise: _r, mergeCommit: _m, resolveSession: _s, ...task } = rec;
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

  private fromRow(r: Row, dependsOn: string[]): TaskRecord {
    return {
      id: r.id,
      initiativeId: r.initiative_id,
      phaseId: r.phase_id,
      slug: r.slug,
      title: r.title,
      description: r.description,
      status: r.status,
      dependsOn,
      proposedBy: r.proposed_by,
      agentId: r.agent_id,
      branch: r.branch,
      summary: r.summary,
      reason: r.reason,
      conflicts: parseJson(Conflicts, r.conflicts_json, null, `task ${r.slug}'s conflicts`, this.w),
      mergedAt: r.merged_at,
      mergeCommit: r.merge_commit,
      resolveSession: r.resolve_session,
      revise: r.revise === 1,
      version: r.version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  insert(t: NewTask): TaskRecord {
    const now = Date.now();
    this.db
      .query(
        `INSERT INTO tasks (id, initiative_id, phase_id, slug, title, description, status, proposed_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(t.id, t.initiativeId, t.phaseId, t.slug, t.title, t.description, t.status, t.proposedBy, now, now);
    this.deps.set(t.id, t.dependsOn);
    return this.get(t.id)!;
  }

  get(id: string): TaskRecord | null {
    const row = this.db.query("SELECT * FROM tasks WHERE id = ?").get(id) as Row | null;
    return row ? this.fromRow(row, this.deps.of(id)) : null;
  }

  /** By id, `<initiative-slug>/<slug>` (task slugs are unique in their initiative) or `<initiative-slug>/<phase-slug>/<slug>`. */
  find(ref: string): TaskRecord | null {
    const parts = ref.split("/");
    let row: Row | null;
    if (parts.length === 1) return this.get(ref);
    if (parts.length === 2) {
      row = this.db
        .query("SELECT t.* FROM tasks t JOIN initiatives i ON i.id = t.initiative_id WHERE i.slug = ? AND t.slug = ?")
        .get(parts[0]!, parts[1]!) as Row | null;
    } else if (parts.length === 3) {
      row = this.db
        .query(
          `SELECT t.* FROM tasks t JOIN phases p ON p.id = t.phase_id JOIN initiatives i ON i.id = t.initiative_id
           WHERE i.slug = ? AND p.slug = ? AND t.slug = ?`,
        )
        .get(parts[0]!, parts[1]!, parts[2]!) as Row | null;
    } else return null;
    return row ? this.fromRow(row, this.deps.of(row.id)) : null;
  }

  /** A phase's tasks, oldest first. */
  listByPhase(phaseId: string): TaskRecord[] {
    const rows = this.db.query("SELECT * FROM tasks WHERE phase_id = ? ORDER BY created_at, rowid").all(phaseId) as Row[];
    const deps = this.deps.ofMany("SELECT id FROM tasks WHERE phase_id = ?", phaseId);
    return rows.map((r) => this.fromRow(r, deps.get(r.id) ?? []));
  }

  /** An initiative's tasks, oldest first. */
  listByInitiative(initiativeId: string): TaskRecord[] {
    const rows = this.db.query("SELECT * FROM tasks WHERE initiative_id = ? ORDER BY created_at, rowid").all(initiativeId) as Row[];
    const deps = this.deps.ofMany("SELECT id FROM tasks WHERE initiative_id = ?", initiativeId);
    return rows.map((r) => this.fromRow(r, deps.get(r.id) ?? []));
  }

  update(id: string, patch: TaskPatch): TaskRecord {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof TaskPatch, TaskPatch[keyof TaskPatch]][]) {
      if (value === undefined || key === "dependsOn") continue;
      sets.push(`${COLUMNS[key]} = ?`);
      if (key === "conflicts") values.push(value === null ? null : JSON.stringify(value));
      else values.push(typeof value === "boolean" ? Number(value) : (value as string | number | null));
    }
    sets.push("version = version + 1", "updated_at = ?");
    values.push(Date.now(), id);
    this.db.query(`UPDATE tasks SET ${sets.join(", ")} WHERE id = ?`).run(...values);
    if (patch.dependsOn) this.deps.set(id, patch.dependsOn);
    return this.get(id)!;
  }

  /** Forgets a task and every edge to or from it (cascade). */
  delete(id: string): void {
    this.db.query("DELETE FROM tasks WHERE id = ?").run(id);
  }
}
