import type { Database } from "../runtime/sqlite.ts";
import type { Message } from "../protocol/message.ts";
import { EntityColumns, type Covers, type NewOf } from "./entity.ts";
import { MESSAGES } from "./tables/conversations.ts";

const COLUMNS = new EntityColumns(MESSAGES);
/** The record and what is only written: whether the sender may resume the addressee (see src/messages/service.ts). */
type Written = Message & { wake: boolean };
// every field of a message has its column but its id, made of its seq
const covered: Covers<typeof MESSAGES, Message, "id", Written> = true;
void covered;

/** `'msg_' || seq AS id, column AS field, ...`: a SELECT or RETURNING of these gives messages as they are. */
export const MESSAGE_COLUMNS = `'msg_' || seq AS id, ${COLUMNS.select()}`;

/** What a message's heading in a prompt costs, counted against the budget with its text. */
const HEADING = 64;

const bySeq = (a: Message, b: Message) => a.seq - b.seq;

/** `msg_<n>` → n; null for anything else. */
export function messageSeq(id: string): number | null {
  const m = /^msg_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** What an insert takes (MESSAGES: `insert`); a message starts `queued`. */
export type NewMessage = NewOf<typeof MESSAGES, Written>;

/** What a session's prompt carries: the oldest queued messages that fit, and how many are left. */
export interface SessionClaim {
  messages: Message[];
  left: number;
}

/**
 * Messages, one row per addressee, ordered by `seq` (never reused). A message is `queued` until
 * it is handed over exactly once, by one of two atomic claims: an inbox read, or a session's
 * prompt (which records the session, so a run that never started gives it back).
 */
export class MessageRepo {
  constructor(private readonly db: Database) {}

  insertMany(msgs: NewMessage[]): Message[] {
    const now = Date.now();
    const insert = this.db.query(`${COLUMNS.insertSql()} RETURNING ${MESSAGE_COLUMNS}`);
    return this.db.transaction(() => msgs.map((m) => insert.get(...COLUMNS.insertValues({ ...m, createdAt: now })) as Message))();
  }

  /** Messages to `toId` not yet read, oldest first; reading them here changes nothing. */
  unread(toId: string, limit: number): Message[] {
    return this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE to_id = ? AND status != 'read' ORDER BY seq LIMIT ?`).all(toId, limit) as Message[];
  }

  get(seq: number): Message | null {
    return this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE seq = ?`).get(seq) as Message | null;
  }

  /**
   * A page of `toId`'s inbox, oldest first: with `after`, every message past that seq; without,
   * the queued ones. The queued messages in the page are delivered in the same transaction, so
   * two readers never both get one as new; `delivered` lists those.
   */
  read(toId: string, after: number | null, limit: number): { page: Message[]; delivered: Message[] } {
    return this.db.transaction(() => {
      const rows = (
        after === null
          ? this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE to_id = ? AND status = 'queued' ORDER BY seq LIMIT ?`).all(toId, limit)
          : this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE to_id = ? AND seq > ? ORDER BY seq LIMIT ?`).all(toId, after, limit)
      ) as Message[];
      if (!rows.length) return { page: [], delivered: [] };
      const delivered = (
        this.db
          .query(
            `UPDATE messages SET status = 'delivered', delivered_at = ?, session = NULL
             WHERE to_id = ? AND status = 'queued' AND seq >= ? AND seq <= ? RETURNING ${MESSAGE_COLUMNS}`,
          )
          .all(Date.now(), toId, rows[0]!.seq, rows.at(-1)!.seq) as Message[]
      ).sort(bySeq);
      const changed = new Map(delivered.map((r) => [r.seq, r]));
      return { page: rows.map((r) => changed.get(r.seq) ?? r), delivered };
    })();
  }

  /** Whether a read with these arguments would return anything. */
  hasFor(toId: string, after: number | null): boolean {
    const row =
      after === null
        ? this.db.query("SELECT 1 FROM messages WHERE to_id = ? AND status = 'queued' LIMIT 1").get(toId)
        : this.db.query("SELECT 1 FROM messages WHERE to_id = ? AND seq > ? LIMIT 1").get(toId, after);
    return row !== null;
  }

  /**
   * Delivers the agent's oldest queued messages to `session`, as many as fit in `budget`
   * characters, each counted with its heading (in order: it stops at the first that does not fit).
   */
  claimForSession(agentId: string, session: number, budget: number): SessionClaim {
    return this.db.transaction(() => {
      const queued = this.db
        .query(`SELECT seq, length(text) + ${HEADING} AS len FROM messages WHERE to_id = ? AND status = 'queued' ORDER BY seq`)
        .all(agentId) as { seq: number; len: number }[];
      let used = 0;
      let n = 0;
      while (n < queued.length && used + queued[n]!.len <= budget) used += queued[n++]!.len;
      if (n === 0) return { messages: [], left: queued.length };
      const rows = this.db
        .query(
          `UPDATE messages SET status = 'delivered', delivered_at = ?, session = ?
           WHERE to_id = ? AND status = 'queued' AND seq <= ? RETURNING ${MESSAGE_COLUMNS}`,
        )
        .all(Date.now(), session, agentId, queued[n - 1]!.seq) as Message[];
      return { messages: rows.sort(bySeq), left: queued.length - n };
    })();
  }

  /** The agent's oldest queued message, as it is (nothing changes). */
  oldestQueued(agentId: string): Message | null {
    return this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE to_id = ? AND status = 'queued' ORDER BY seq LIMIT 1`).get(agentId) as Message | null;
  }

  /** The agent's oldest queued message, delivered to `session` (written into its running session's input). */
  claimNextForSession(agentId: string, session: number): Message | null {
    return this.db
      .query(
        `UPDATE messages SET status = 'delivered', delivered_at = ?, session = ?
         WHERE seq = (SELECT seq FROM messages WHERE to_id = ? AND status = 'queued' ORDER BY seq LIMIT 1) RETURNING ${MESSAGE_COLUMNS}`,
      )
      .get(Date.now(), session, agentId) as Message | null;
  }

  /** Queued again: handed to a reader or a session that never got them. Only delivered ones change. */
  requeue(seqs: number[]): Message[] {
    const q = this.db.query(`UPDATE messages SET status = 'queued', delivered_at = NULL, session = NULL WHERE seq = ? AND status = 'delivered' RETURNING ${MESSAGE_COLUMNS}`);
    return this.db.transaction(() => seqs.flatMap((s) => q.all(s) as Message[]))();
  }

  /**
   * Messages delivered to a session of `agentId` (any agent when null) up to `upTo` that never
   * got a process (no pid: the daemon died or the launch failed before it ran): queued again.
   */
  requeueUnstarted(agentId: string | null, upTo = Number.MAX_SAFE_INTEGER): Message[] {
    return (
      this.db
        .query(
          `UPDATE messages SET status = 'queued', delivered_at = NULL, session = NULL
           WHERE status = 'delivered' AND session IS NOT NULL AND session <= ?2 AND (?1 IS NULL OR to_id = ?1)
             AND NOT EXISTS (SELECT 1 FROM agent_sessions s WHERE s.agent_id = messages.to_id AND s.session = messages.session AND s.pid IS NOT NULL)
           RETURNING ${MESSAGE_COLUMNS}`,
        )
        .all(agentId, upTo) as Message[]
    ).sort(bySeq);
  }

  /** Agents with a queued message whose sender may resume them. */
  wakeable(): string[] {
    return (this.db.query("SELECT DISTINCT to_id AS id FROM messages WHERE status = 'queued' AND wake = 1").all() as { id: string }[]).map((r) => r.id);
  }

  /**
   * Whether a session started now would carry a message that may wake the agent: one is queued,
   * and the oldest queued one fits in `budget` (a longer one waits for the inbox).
   */
  wakeReady(agentId: string, budget: number): boolean {
    const row = this.db
      .query(
        `SELECT EXISTS (SELECT 1 FROM messages WHERE to_id = ?1 AND status = 'queued' AND wake = 1)
           AND (SELECT length(text) + ${HEADING} FROM messages WHERE to_id = ?1 AND status = 'queued' ORDER BY seq LIMIT 1) <= ?2 AS ready`,
      )
      .get(agentId, budget) as { ready: number | null };
    return row.ready === 1;
  }

  /** A message to the person, seen: `read`. Null when there is no such message to `toId`. */
  markRead(seq: number, toId: string): Message | null {
    return this.db.query(`UPDATE messages SET status = 'read', delivered_at = coalesce(delivered_at, ?) WHERE seq = ? AND to_id = ? RETURNING ${MESSAGE_COLUMNS}`).get(Date.now(), seq, toId) as Message | null;
  }

  /** Messages to an agent that is gone: nobody will read them. */
  deleteTo(agentId: string): void {
    this.db.query("DELETE FROM messages WHERE to_id = ?").run(agentId);
  }
}
