import type { Database } from "../runtime/sqlite.ts";

/**
 * Which mode agent sessions' outputs were imported (src/work/modes.ts). A proposal records its
 * session in the transaction that stores it, so the mark and what it marks commit together.
 */
export class ModeImportRepo {
  constructor(private readonly db: Database) {}

  has(agentId: string, session: number): boolean {
    return this.db.query("SELECT 1 FROM mode_imports WHERE agent_id = ? AND session = ?").get(agentId, session) !== null;
  }

  /** False when the session was recorded already. */
  add(agentId: string, session: number): boolean {
    const r = this.db.query("INSERT OR IGNORE INTO mode_imports (agent_id, session, imported_at) VALUES (?, ?, ?)").run(agentId, session, Date.now());
    return r.changes > 0;
  }
}
