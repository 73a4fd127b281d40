import type { Database } from "../runtime/sqlite.ts";
import { PermissionPolicySchema } from "../protocol/permission.ts";
import { DispatchSchema, type Dispatch, type Initiative, type InitiativeStatus, type ReviewPolicy } from "../protocol/work.ts";
import { parseJson, type StoreWarnings } from "./entity.ts";

interface Row {
  id: string;
  name: string;
  slug: string;
  goal: string;
  proposed_goal: string | null;
  proposed_goal_by: string | null;
  status: InitiativeStatus;
  base_ref: string;
  base_commit: string;
  branch: string;
  review: ReviewPolicy;
  dispatch_json: string | null;
  budget_usd: number | null;
  reason: string | null;
  permissions_json: string | null;
  spent_usd: number;
  version: number;
  created_at: number;
  updated_at: number;
}

/** What the daemon keeps beyond what clients see: who proposed the pending goal. */
export interface InitiativeRecord extends Initiative {
  proposedGoalBy: string | null;
}

export type NewInitiative = Pick<Initiative, "id" | "name" | "slug" | "goal" | "baseRef" | "baseCommit" | "branch" | "review" | "budgetUsd" | "permissions">;

export type InitiativePatch = Partial<{
  goal: string;
  proposedGoal: string | null;
  proposedGoalBy: string | null;
  status: InitiativeStatus;
  dispatch: Dispatch | null;
  budgetUsd: number;
  reason: string | null;
}>;

const COLUMNS: Record<keyof InitiativePatch, string> = {
  goal: "goal",
  proposedGoal: "proposed_goal",
  proposedGoalBy: "proposed_goal_by",
  status: "status",
  dispatch: "dispatch_json",
  budgetUsd: "budget_usd",
  reason: "reason",
};

/** Every initiative column and what its agents spent, summed as it is read (always current). */
const SELECT = `SELECT i.*, (SELECT COALESCE(SUM(a.cost_usd), 0) FROM agents a WHERE a.initiative_id = i.id) AS spent_usd FROM initiatives i`;

/** Initiatives; every change bumps `version` (the service publishes it as `initiative:updated`). */
export class InitiativeRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  private fromRow(r: Row): InitiativeRecord {
    return {
      id: r.id,
      name: r.name,
      slug: r.slug,
      goal: r.goal,
      proposedGoal: r.proposed_goal,
      proposedGoalBy: r.proposed_goal_by,
      status: r.status,
      baseRef: r.base_ref,
      baseCommit: r.base_commit,
      branch: r.branch,
      review: r.review,
      dispatch: parseJson(DispatchSchema.nullable(), r.dispatch_json, null, `initiative ${r.slug}'s dispatch`, this.w),
      budgetUsd: r.budget_usd,
      spentUsd: r.spent_usd,
      reason: r.reason,
      permissions: parseJson(PermissionPolicySchema.nullable(), r.permissions_json, null, `initiative ${r.slug}'s permissions`, this.w),
      version: r.version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  insert(i: NewInitiative): InitiativeRecord {
    const now = Date.now();
    this.db
      .query(
        `INSERT INTO initiatives (id, name, slug, goal, status, base_ref, base_commit, branch, review, budget_usd, permissions_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(i.id, i.name, i.slug, i.goal, i.baseRef, i.baseCommit, i.branch, i.review, i.budgetUsd, i.permissions ? JSON.stringify(i.permissions) : null, now, now);
    return this.get(i.id)!;
  }

  get(id: string): InitiativeRecord | null {
    const row = this.db.query(`${SELECT} WHERE i.id = ?`).get(id) as Row | null;
    return row ? this.fromRow(row) : null;
  }

  /** By id or slug. */
  find(ref: string): InitiativeRecord | null {
    const row = this.db.query(`${SELECT} WHERE i.id = ?1 OR i.slug = ?1`).get(ref) as Row | null;
    return row ? this.fromRow(row) : null;
  }

  list(): InitiativeRecord[] {
    return (this.db.query(`${SELECT} ORDER BY i.created_at, i.id`).all() as Row[]).map((r) => this.fromRow(r));
  }

  slugTaken(slug: string): boolean {
    return this.db.query("SELECT 1 FROM initiatives WHERE slug = ?").get(slug) !== null;
  }

  update(id: string, patch: InitiativePatch): InitiativeRecord {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, value] of Object.entries(patch) as [keyof InitiativePatch, InitiativePatch[keyof InitiativePatch]][]) {
      if (value === undefined) continue;
      sets.push(`${COLUMNS[key]} = ?`);
      values.push(key === "dispatch" ? (value === null ? null : JSON.stringify(value)) : (value as string | number | null));
    }
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
