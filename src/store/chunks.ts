import type { Database } from "bun:sqlite";
import type { OutputChunk, Stream } from "../protocol/output.ts";

interface Row {
  id: number;
  agent_id: string;
  session: number;
  stream: Stream;
  data: string;
  created_at: number;
}

const fromRow = (r: Row): OutputChunk => ({
  id: r.id,
  agentId: r.agent_id,
  session: r.session,
  stream: r.stream,
  data: r.data,
  createdAt: r.created_at,
});

/** Every line an agent wrote, in order; the one record of output (files are only the transport). */
export class ChunkRepo {
  constructor(private readonly db: Database) {}

  /** Stores a chunk and the byte offset it reaches in one transaction: a crash keeps both or neither. */
  append(c: { agentId: string; session: number; stream: Stream; data: string; offset: number }): OutputChunk {
    const col = c.stream === "stdout" ? "stdout_offset" : "stderr_offset";
    const now = Date.now();
    return this.db.transaction(() => {
      const row = this.db
        .query("INSERT INTO agent_log_chunks (agent_id, session, stream, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id")
        .get(c.agentId, c.session, c.stream, c.data, now) as { id: number };
      this.db.query(`UPDATE agent_sessions SET ${col} = ? WHERE agent_id = ? AND session = ?`).run(c.offset, c.agentId, c.session);
      return { id: row.id, agentId: c.agentId, session: c.session, stream: c.stream, data: c.data, createdAt: now };
    })();
  }

  list(agentId: string, q: { after?: number; session?: number; limit?: number }): OutputChunk[] {
    const limit = Math.min(q.limit ?? 10_000, 10_000);
    const rows = q.session === undefined
      ? this.db.query("SELECT * FROM agent_log_chunks WHERE agent_id = ? AND id > ? ORDER BY id LIMIT ?").all(agentId, q.after ?? 0, limit)
      : this.db
          .query("SELECT * FROM agent_log_chunks WHERE agent_id = ? AND session = ? AND id > ? ORDER BY id LIMIT ?")
          .all(agentId, q.session, q.after ?? 0, limit);
    return (rows as Row[]).map(fromRow);
  }
}
