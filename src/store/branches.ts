import type { Database } from "../runtime/sqlite.ts";

export interface BranchRecord {
  branch: string;
  /** The agent it was made for (it may since have been removed). */
  agentId: string | null;
  createdAt: number;
}

/** The branches troupe created: it never deletes one, and `gc` lists those no agent owns any more. */
export class BranchRepo {
  constructor(private readonly db: Database) {}

  record(branch: string, agentId: string): void {
    this.db.query("INSERT OR REPLACE INTO troupe_branches (branch, agent_id, created_at) VALUES (?, ?, ?)").run(branch, agentId, Date.now());
  }

  list(): BranchRecord[] {
    const rows = this.db.query("SELECT branch, agent_id, created_at FROM troupe_branches ORDER BY created_at, branch").all() as { branch: string; agent_id: string | null; created_at: number }[];
    return rows.map((r) => ({ branch: r.branch, agentId: r.agent_id, createdAt: r.created_at }));
  }
}
