import type { Database } from "../runtime/sqlite.ts";
import type { OutputChunk, Stream } from "../protocol/output.ts";

/** Keeps one response (and the memory to build it) small however much an agent wrote. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

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

  /**
   * A page of chunks, oldest first: with `after`, those with a greater id; with `before`, the
   * newest ones with a smaller id (so a reader can start at the end). At most `limit` chunks and
   * about MAX_PAGE_BYTES of data (always at least one chunk). An empty page is the end.
   */
  list(agentId: string, q: { after?: number; before?: number; session?: number; limit?: number }): OutputChunk[] {
    const limit = Math.min(q.limit ?? 10_000, 10_000);
    const backwards = q.before !== undefined;
    const where = `agent_id = ?1 AND id ${backwards ? "<" : ">"} ?2${q.session === undefined ? "" : " AND session = ?4"}`;
    const stmt = this.db.query(`SELECT * FROM agent_log_chunks WHERE ${where} ORDER BY id ${backwards ? "DESC" : "ASC"} LIMIT ?3`);
    const bound = backwards ? q.before! : (q.after ?? 0);
    const params = q.session === undefined ? [agentId, bound, limit] : [agentId, bound, limit, q.session];
    const out: OutputChunk[] = [];
    let bytes = 0;
    for (const row of stmt.iterate(...params) as IterableIterator<Row>) {
      out.push(fromRow(row));
      bytes += row.data.length;
      if (bytes >= MAX_PAGE_BYTES) break;
    }
    return backwards ? out.reverse() : out;
  }
}
