import type { Database } from "../runtime/sqlite.ts";
import { EntityColumns, type Covers } from "./entity.ts";
import { TROUPE_BRANCHES } from "./tables/work.ts";

export interface BranchRecord {
  branch: string;
  /** The agent it was made for (it may since have been removed). */
  agentId: string | null;
  createdAt: number;
}

const COLUMNS = new EntityColumns(TROUPE_BRANCHES);
const covered: Covers<typeof TROUPE_BRANCHES, BranchRecord> = true;
void covered;

/** The branches troupe created: it never deletes one, and `gc` lists those no agent owns any more. */
export class BranchRepo {
  constructor(private readonly db: Database) {}

  record(branch: string, agentId: string): void {
    this.db.query(COLUMNS.insertSql("REPLACE")).run(...COLUMNS.insertValues({ branch, agentId, createdAt: Date.now() } satisfies BranchRecord));
  }

  list(): BranchRecord[] {
    return this.db.query(`SELECT ${COLUMNS.select()} FROM troupe_branches ORDER BY created_at, branch`).all() as BranchRecord[];
  }
}
