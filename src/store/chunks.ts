import type { Database } from "../runtime/sqlite.ts";
import type { FileStream, OutputChunk, Stream } from "../protocol/output.ts";
import { formatBytes } from "../protocol/bytes.ts";
import { OutputTallies } from "./output-tally.ts";

/** Keeps one response (and the memory to build it) small however much an agent wrote. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

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
function droppedMarker(droppedBytes: number, capBytes: number): string {
  return `… ${formatBytes(droppedBytes)} of older output dropped (cap ${formatBytes(capBytes)})\n`;
}

/** Every line an agent wrote, in order; the one record of output (files are only the transport). */
export class ChunkRepo {
  private append: { one: Append; many: Append } | null = null;
  private readonly tallies: OutputTallies;

  constructor(private readonly db: Database) {
    this.tallies = new OutputTallies(db);
  }

  /**
   * Stores pieces (of any files) in one transaction, each row carrying the offsets its session's
   * files are stored to and its agent's appended total (see output-tally.ts): a crash keeps all
   * or none, so output is never stored twice or skipped. Returns the chunks, in order, and each
   * agent's stored total afterwards.
   */
  appendMany(pieces: readonly Piece[]): Appended {
    this.append ??= this.appendStatements();
    try {
      // one piece of a session already under way is one INSERT, atomic on its own: no BEGIN/COMMIT around it
      const one = pieces.length === 1 ? pieces[0]! : null;
      return one && this.tallies.ready(one.agentId, one.session) ? this.append.one(pieces) : this.append.many(pieces);
    } catch (err) {
      this.tallies.reset(); // what was cached moved on with a write that rolled back
      throw err;
    }
  }

  /**
   * Built once: the statement prepared and the transaction wrapped once, not per pass (with a
   * line a second from each of 200 agents, nearly every pass stores a single line, one insert).
   */
  private appendStatements(): { one: Append; many: Append } {
    const insert = this.db.query(
      `INSERT INTO agent_log_chunks (agent_id, session, stream, data, bytes, created_at, stdout_to, stderr_to, appended)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const store = (p: Piece, now: number, stored: Map<string, number>): OutputChunk => {
      const t = this.tallies.of(p.agentId);
      this.tallies.enter(p.agentId, t, p.session);
      this.tallies.advance(t, p.stream, p.offset, p.bytes);
      const row = insert.get(p.agentId, p.session, p.stream, p.data, p.bytes, now, t.stdout, t.stderr, t.appended) as { id: number };
      stored.set(p.agentId, t.appended - t.dropped);
      return { id: row.id, agentId: p.agentId, session: p.session, stream: p.stream, data: p.data, createdAt: now };
    };
    const many = (pieces: readonly Piece[]): Appended => {
      const now = Date.now();
      const stored = new Map<string, number>();
      return { chunks: pieces.map((p) => store(p, now, stored)), stored };
    };
    return { one: many, many: this.db.transaction(many) };
  }

  /** Byte offsets stored so far for a session's two files. */
  offsets(agentId: string, session: number): { stdout: number; stderr: number } | null {
    return this.tallies.offsets(agentId, session);
  }

  /** Bytes of output stored for an agent and dropped under the cap. */
  usage(agentId: string): { stored: number; dropped: number } {
    const t = this.tallies.read(agentId);
    return { stored: t.appended - t.dropped, dropped: t.dropped };
  }

  /**
   * When the agent's oldest stored output that holds `text` was stored (epoch ms), or null. For a
   * provider's session id: the session began no later than that (output dropped under the cap
   * only makes the answer later).
   */
  firstStoredWith(agentId: string, text: string): number | null {
    const row = this.db.query("SELECT created_at FROM agent_log_chunks WHERE agent_id = ? AND instr(data, ?) > 0 ORDER BY id LIMIT 1").get(agentId, text) as { created_at: number } | null;
    return row?.created_at ?? null;
  }

  /** An agent being removed: what is cached of its output goes. */
  forget(agentId: string): void {
    this.tallies.forget(agentId);
  }

  /** Agents storing more than `capBytes` (a store from before the cap, or a lowered cap). */
  agentsOver(capBytes: number): string[] {
    const rows = this.db
      .query(
        `SELECT o.agent_id FROM agent_output o
         WHERE COALESCE((SELECT c.appended FROM agent_log_chunks c WHERE c.agent_id = o.agent_id ORDER BY c.id DESC LIMIT 1), o.appended_bytes) - o.dropped_bytes > ?`,
      )
      .all(capBytes) as { agent_id: string }[];
    return rows.map((r) => r.agent_id);
  }

  /**
   * Drops an agent's oldest chunks, at least `atLeast` bytes of them (and whole chunks, so
   * maybe a little more) but never more than `atMost`, and puts a marker chunk in their place:
   * it takes the id of the newest dropped chunk, so it sorts before everything kept, and says
   * how much was dropped in all. One transaction; returns the bytes still stored.
   */
  dropOldest(agentId: string, atLeast: number, atMost: number, capBytes: number): number {
    try {
      return this.dropTransaction(agentId, atLeast, atMost, capBytes);
    } catch (err) {
      this.tallies.reset();
      throw err;
    }
  }

  private dropTransaction(agentId: string, atLeast: number, atMost: number, capBytes: number): number {
    return this.db.transaction(() => {
      const t = this.tallies.of(agentId);
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
      if (!last || dropped === 0) return t.appended - t.dropped;
      // the marker keeps the offsets the newest dropped row carried: when nothing newer is kept, it is the newest row
      const { stdout_to, stderr_to } = this.db.query("SELECT stdout_to, stderr_to FROM agent_log_chunks WHERE id = ?").get(last.id) as {
        stdout_to: number | null;
        stderr_to: number | null;
      };
      this.db.query("DELETE FROM agent_log_chunks WHERE agent_id = ? AND id <= ?").run(agentId, last.id);
      t.dropped += dropped;
      this.db
        .query(
          `INSERT INTO agent_log_chunks (id, agent_id, session, stream, data, bytes, created_at, stdout_to, stderr_to, appended)
           VALUES (?, ?, ?, 'troupe', ?, 0, ?, ?, ?, ?)`,
        )
        .run(last.id, agentId, last.session, droppedMarker(t.dropped, capBytes), Date.now(), stdout_to, stderr_to, t.appended);
      this.db.query("UPDATE agent_output SET appended_bytes = ?, dropped_bytes = ? WHERE agent_id = ?").run(t.appended, t.dropped, agentId);
      return t.appended - t.dropped;
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
