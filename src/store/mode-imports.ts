import type { Database } from "../runtime/sqlite.ts";
import { EntityColumns, type Covers } from "./entity.ts";
import { MODE_IMPORTS } from "./tables/work.ts";

/** One session whose outputs were imported. */
interface ModeImport {
  agentId: string;
  session: number;
  importedAt: number;
}

const COLUMNS = new EntityColumns(MODE_IMPORTS);
const covered: Covers<typeof MODE_IMPORTS, ModeImport> = true;
void covered;

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
    const r = this.db.query(COLUMNS.insertSql("IGNORE")).run(...COLUMNS.insertValues({ agentId, session, importedAt: Date.now() } satisfies ModeImport));
    return r.changes > 0;
  }
}
