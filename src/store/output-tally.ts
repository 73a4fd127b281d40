import type { Database } from "../runtime/sqlite.ts";
import type { FileStream } from "../protocol/output.ts";

/**
 * Where an agent's stored output stands: how far its session's two files are stored, and how many
 * bytes it ever appended and had dropped under the cap (stored = appended − dropped).
 *
 * Kept in the chunk rows themselves (migration 22, "offsets-in-chunks"): every stored chunk carries
 * its session's two file offsets and the agent's appended total after it, so storing a line is one
 * insert, with no separate writes of the session's offset and the agent's total (two more b-trees,
 * and their pages in every commit). The newest chunk of an agent (the chunk index read backwards,
 * one row) holds the truth for its session; the session row holds it for every other session,
 * written when an agent's chunks move on to another session (rare: a session's start). Rows from
 * before the migration carry nulls: their totals are in agent_output, their offsets in the session
 * row, as then.
 */
export interface Tally {
  /** The session the offsets are of (null: the agent never stored a chunk). */
  session: number | null;
  stdout: number;
  stderr: number;
  appended: number;
  dropped: number;
}

interface Newest {
  session: number;
  stdout_to: number | null;
  stderr_to: number | null;
  appended: number | null;
}

/** Reads and keeps each agent's tally; the chunk repo moves it on as it stores. */
export class OutputTallies {
  /** Cached per agent while this process stores for it; cleared whenever a transaction fails. */
  private readonly known = new Map<string, Tally>();
  private readonly q;

  constructor(db: Database) {
    this.q = {
      newest: db.query("SELECT session, stdout_to, stderr_to, appended FROM agent_log_chunks WHERE agent_id = ? ORDER BY id DESC LIMIT 1"),
      output: db.query("SELECT appended_bytes, dropped_bytes FROM agent_output WHERE agent_id = ?"),
      ensure: db.query("INSERT OR IGNORE INTO agent_output (agent_id) VALUES (?)"),
      session: db.query("SELECT stdout_offset, stderr_offset FROM agent_sessions WHERE agent_id = ? AND session = ?"),
      keep: db.query("UPDATE agent_sessions SET stdout_offset = MAX(stdout_offset, ?), stderr_offset = MAX(stderr_offset, ?) WHERE agent_id = ? AND session = ?"),
    };
  }

  /** The agent's tally as the store holds it (cached); creates its agent_output row. Inside a transaction that stores. */
  of(agentId: string): Tally {
    const cached = this.known.get(agentId);
    if (cached) return cached;
    const t = this.read(agentId);
    this.q.ensure.run(agentId);
    this.known.set(agentId, t);
    return t;
  }

  /** The agent's tally is cached and at `session`: storing a piece of it writes its chunk row and nothing else. */
  ready(agentId: string, session: number): boolean {
    return this.known.get(agentId)?.session === session;
  }

  /**
   * Moves the tally to `session` before a chunk of it is stored: the offsets of the session it
   * leaves go to that session's row (the new chunk will be the newest, and no longer says them).
   */
  enter(agentId: string, t: Tally, session: number): void {
    if (t.session === session) return;
    if (t.session !== null) this.q.keep.run(t.stdout, t.stderr, agentId, t.session);
    const row = this.q.session.get(agentId, session) as { stdout_offset: number; stderr_offset: number } | null;
    t.session = session;
    t.stdout = row?.stdout_offset ?? 0;
    t.stderr = row?.stderr_offset ?? 0;
  }

  /** The tally after a chunk of `bytes` reaching `offset` in its file. */
  advance(t: Tally, stream: FileStream, offset: number, bytes: number): void {
    t[stream] = offset;
    t.appended += bytes;
  }

  /** Byte offsets stored so far for a session's two files; null: no such session. */
  offsets(agentId: string, session: number): { stdout: number; stderr: number } | null {
    const row = this.q.session.get(agentId, session) as { stdout_offset: number; stderr_offset: number } | null;
    if (!row) return null;
    const t = this.known.get(agentId) ?? this.read(agentId);
    if (t.session !== session) return { stdout: row.stdout_offset, stderr: row.stderr_offset };
    return { stdout: Math.max(row.stdout_offset, t.stdout), stderr: Math.max(row.stderr_offset, t.stderr) };
  }

  /** What the store says, reading no cache. */
  read(agentId: string): Tally {
    const newest = this.q.newest.get(agentId) as Newest | null;
    const out = this.q.output.get(agentId) as { appended_bytes: number; dropped_bytes: number } | null;
    const appended = newest?.appended ?? out?.appended_bytes ?? 0;
    const dropped = out?.dropped_bytes ?? 0;
    if (!newest) return { session: null, stdout: 0, stderr: 0, appended, dropped };
    const row = this.q.session.get(agentId, newest.session) as { stdout_offset: number; stderr_offset: number } | null;
    return {
      session: newest.session,
      stdout: Math.max(row?.stdout_offset ?? 0, newest.stdout_to ?? 0),
      stderr: Math.max(row?.stderr_offset ?? 0, newest.stderr_to ?? 0),
      appended,
      dropped,
    };
  }

  /** The store may differ from what is cached (a transaction rolled back): read again when next needed. */
  reset(): void {
    this.known.clear();
  }

  /** An agent being removed: nothing of it is stored again. */
  forget(agentId: string): void {
    this.known.delete(agentId);
  }
}
