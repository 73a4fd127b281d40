import type { Database } from "../runtime/sqlite.ts";
import type { FileStream, OutputChunk, Stream } from "../protocol/output.ts";
import { formatBytes } from "../protocol/bytes.ts";

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

/** A piece of whole lines read from an output file, and the file offset reached after it. */
export interface Piece {
  agentId: string;
  session: number;
  stream: FileStream;
  data: string;
  /** Its size in the file, which is what the cap counts. */
  bytes: number;
  offset: number;
}

/** The chunks stored, in order, and each agent's stored total afterwards. */
type Appended = { chunks: OutputChunk[]; stored: Map<string, number> };
type Append = (pieces: readonly Piece[]) => Appended;

/** The line that takes the place of dropped output, where it was (before what is kept): troupe's, stream `troupe`. */
export function droppedMarker(droppedBytes: number, capBytes: number): string {
  return `… ${formatBytes(droppedBytes)} of older output dropped (cap ${formatBytes(capBytes)})\n`;
}

/** Every line an agent wrote, in order; the one record of output (files are only the transport). */
export class ChunkRepo {
  private append: Append | null = null;

  constructor(private readonly db: Database) {}

  /**
   * Stores pieces (of any files) and the offsets they reach in one transaction: a crash keeps
   * all or none, so output is never stored twice or skipped. Returns the chunks, in order, and
   * each agent's stored total afterwards.
   */
  appendMany(pieces: readonly Piece[]): Appended {
    this.append ??= this.appendTransaction();
    return this.append(pieces);
  }

  /**
   * Built once: its statements prepared and its transaction wrapped once, not per pass (with a
   * line a second from each of 200 agents, nearly every pass stores a single line).
   */
  private appendTransaction(): Append {
    const insert = this.db.query(
      "INSERT INTO agent_log_chunks (agent_id, session, stream, data, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    );
    const offset = {
      stdout: this.db.query("UPDATE agent_sessions SET stdout_offset = ? WHERE agent_id = ? AND session = ?"),
      stderr: this.db.query("UPDATE agent_sessions SET stderr_offset = ? WHERE agent_id = ? AND session = ?"),
    };
    const usage = this.db.query(
      `INSERT INTO agent_output (agent_id, stored_bytes) VALUES (?1, ?2)
       ON CONFLICT (agent_id) DO UPDATE SET stored_bytes = stored_bytes + ?2 RETURNING stored_bytes`,
    );
    return this.db.transaction((pieces: readonly Piece[]): Appended => {
      const now = Date.now();
      const offsets = new Map<string, Piece>();
      const added = new Map<string, number>();
      const chunks = pieces.map((p) => {
        const row = insert.get(p.agentId, p.session, p.stream, p.data, p.bytes, now) as { id: number };
        offsets.set(`${p.agentId}\0${p.session}\0${p.stream}`, p);
        added.set(p.agentId, (added.get(p.agentId) ?? 0) + p.bytes);
        return { id: row.id, agentId: p.agentId, session: p.session, stream: p.stream, data: p.data, createdAt: now };
      });
      for (const p of offsets.values()) offset[p.stream].run(p.offset, p.agentId, p.session);
      const stored = new Map<string, number>();
      for (const [agentId, bytes] of added) stored.set(agentId, (usage.get(agentId, bytes) as { stored_bytes: number }).stored_bytes);
      return { chunks, stored };
    });
  }

  /** Byte offsets stored so far for a session's two files. */
  offsets(agentId: string, session: number): { stdout: number; stderr: number } | null {
    const row = this.db.query("SELECT stdout_offset, stderr_offset FROM agent_sessions WHERE agent_id = ? AND session = ?").get(agentId, session) as {
      stdout_offset: number;
      stderr_offset: number;
    } | null;
    return row && { stdout: row.stdout_offset, stderr: row.stderr_offset };
  }

  /** Bytes of output stored for an agent and dropped under the cap. */
  usage(agentId: string): { stored: number; dropped: number } {
    const row = this.db.query("SELECT stored_bytes, dropped_bytes FROM agent_output WHERE agent_id = ?").get(agentId) as {
      stored_bytes: number;
      dropped_bytes: number;
    } | null;
    return { stored: row?.stored_bytes ?? 0, dropped: row?.dropped_bytes ?? 0 };
  }

  /** Agents storing more than `capBytes` (a store from before the cap, or a lowered cap). */
  agentsOver(capBytes: number): string[] {
    return (this.db.query("SELECT agent_id FROM agent_output WHERE stored_bytes > ?").all(capBytes) as { agent_id: string }[]).map((r) => r.agent_id);
  }

  /**
   * Drops an agent's oldest chunks, at least `atLeast` bytes of them (and whole chunks, so
   * maybe a little more) but never more than `atMost`, and puts a marker chunk in their place:
   * it takes the id of the newest dropped chunk, so it sorts before everything kept, and says
   * how much was dropped in all. One transaction; returns the bytes still stored.
   */
  dropOldest(agentId: string, atLeast: number, atMost: number, capBytes: number): number {
    return this.db.transaction(() => {
      const usage = this.usage(agentId);
      // the marker (bytes 0, troupe's own note, never the agent's stderr) is the oldest row: it is dropped with the rest and written anew
      const oldest = this.db.query(
        "SELECT id, session, COALESCE(bytes, octet_length(data)) AS bytes FROM agent_log_chunks WHERE agent_id = ? ORDER BY id",
      );
      let dropped = 0;
      let last: { id: number; session: number } | null = null;
      for (const row of oldest.iterate(agentId) as IterableIterator<{ id: number; session: number; bytes: number }>) {
        if (last && (dropped >= atLeast || dropped + row.bytes > atMost)) break;
        dropped += row.bytes;
        last = row;
      }
      if (!last || dropped === 0) return usage.stored;
      this.db.query("DELETE FROM agent_log_chunks WHERE agent_id = ? AND id <= ?").run(agentId, last.id);
      const total = usage.dropped + dropped;
      this.db
        .query("INSERT INTO agent_log_chunks (id, agent_id, session, stream, data, bytes, created_at) VALUES (?, ?, ?, 'troupe', ?, 0, ?)")
        .run(last.id, agentId, last.session, droppedMarker(total, capBytes), Date.now());
      const left = usage.stored - dropped;
      this.db.query("UPDATE agent_output SET stored_bytes = ?, dropped_bytes = ? WHERE agent_id = ?").run(left, total, agentId);
      return left;
    })();
  }

  /** Bytes in free pages: space the file holds that new rows will reuse, or that can go back. */
  freeBytes(): number {
    const { freelist_count } = this.db.query("PRAGMA freelist_count").get() as { freelist_count: number };
    const { page_size } = this.db.query("PRAGMA page_size").get() as { page_size: number };
    return freelist_count * page_size;
  }

  /** Gives up to `pages` free pages back to the file system (the store is in incremental auto-vacuum); returns the free bytes left. */
  releaseFreePages(pages: number): number {
    this.db.exec(`PRAGMA incremental_vacuum(${Math.floor(pages)})`);
    return this.freeBytes();
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
