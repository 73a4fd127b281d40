import type { Database } from "../runtime/sqlite.ts";
import type { Conversation, ConversationStatus } from "../protocol/entities.ts";

export interface ConversationRow {
  id: string;
  from_id: string;
  from_name: string;
  to_id: string;
  to_name: string;
  question: string;
  answer: string | null;
  answered_by: string | null;
  status: ConversationStatus;
  task_id: string | null;
  phase_id: string | null;
  created_at: number;
  expires_at: number | null;
  answered_at: number | null;
}

export const conversationFromRow = (r: ConversationRow): Conversation => ({
  id: r.id,
  fromId: r.from_id,
  fromName: r.from_name,
  toId: r.to_id,
  toName: r.to_name,
  question: r.question,
  answer: r.answer,
  answeredBy: r.answered_by,
  status: r.status,
  taskId: r.task_id,
  phaseId: r.phase_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  answeredAt: r.answered_at,
});

export type NewConversation = Pick<Conversation, "id" | "fromId" | "fromName" | "toId" | "toName" | "question" | "taskId" | "phaseId" | "expiresAt">;

export class ConversationRepo {
  constructor(private readonly db: Database) {}

  insert(c: NewConversation): Conversation {
    this.db
      .query(
        `INSERT INTO conversations (id, from_id, from_name, to_id, to_name, question, status, task_id, phase_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
      )
      .run(c.id, c.fromId, c.fromName, c.toId, c.toName, c.question, c.taskId, c.phaseId, Date.now(), c.expiresAt);
    return this.get(c.id)!;
  }

  get(id: string): Conversation | null {
    const row = this.db.query("SELECT * FROM conversations WHERE id = ?").get(id) as ConversationRow | null;
    return row ? conversationFromRow(row) : null;
  }

  list(q: { pending?: boolean } = {}): Conversation[] {
    const sql = q.pending
      ? "SELECT * FROM conversations WHERE status IN ('pending', 'delivered') ORDER BY created_at, rowid"
      : "SELECT * FROM conversations ORDER BY created_at, rowid";
    return (this.db.query(sql).all() as ConversationRow[]).map(conversationFromRow);
  }

  /**
   * Atomically hands the oldest pending conversation for `toId` to one listener. `leaseSession`:
   * the listening agent's session; the conversation goes back to pending if that session ends
   * before it is answered (`releaseLeases`).
   */
  claimNext(toId: string, leaseSession: number | null = null): Conversation | null {
    const row = this.db
      .query(
        `UPDATE conversations SET status = 'delivered', lease_session = ?
         WHERE id = (SELECT id FROM conversations WHERE to_id = ? AND status = 'pending' ORDER BY created_at, rowid LIMIT 1)
         RETURNING *`,
      )
      .get(leaseSession, toId) as ConversationRow | null;
    return row ? conversationFromRow(row) : null;
  }

  /** The oldest conversation pending for `toId`, as it is (nothing changes). */
  oldestPending(toId: string): Conversation | null {
    const row = this.db.query("SELECT * FROM conversations WHERE to_id = ? AND status = 'pending' ORDER BY created_at, rowid LIMIT 1").get(toId) as ConversationRow | null;
    return row ? conversationFromRow(row) : null;
  }

  /** Hands one given pending conversation over (delivered); null when it was not pending. */
  claim(id: string): Conversation | null {
    const row = this.db.query("UPDATE conversations SET status = 'delivered' WHERE id = ? AND status = 'pending' RETURNING *").get(id) as ConversationRow | null;
    return row ? conversationFromRow(row) : null;
  }

  /** Gives a claimed conversation back when the listener left before receiving it. */
  unclaim(id: string): void {
    this.db.query("UPDATE conversations SET status = 'pending', lease_session = NULL WHERE id = ? AND status = 'delivered'").run(id);
  }

  /** Conversations `toId` claimed by listening in a session up to `session` and left unanswered: pending again. */
  releaseLeases(toId: string, session: number): Conversation[] {
    return (
      this.db
        .query(
          `UPDATE conversations SET status = 'pending', lease_session = NULL
           WHERE to_id = ? AND status = 'delivered' AND lease_session IS NOT NULL AND lease_session <= ? RETURNING *`,
        )
        .all(toId, session) as ConversationRow[]
    ).map(conversationFromRow);
  }

  /** Null when it was already answered or expired: only one answer ever lands. */
  answer(id: string, answer: string, by: string): Conversation | null {
    const row = this.db
      .query(
        `UPDATE conversations SET status = 'answered', answer = ?, answered_by = ?, answered_at = ?
         WHERE id = ? AND status IN ('pending', 'delivered') RETURNING *`,
      )
      .get(answer, by, Date.now(), id) as ConversationRow | null;
    return row ? conversationFromRow(row) : null;
  }

  /** Expires every open conversation addressed to `toId` (it can no longer answer) and returns them. */
  expireTo(toId: string): Conversation[] {
    return (
      this.db
        .query("UPDATE conversations SET status = 'expired' WHERE to_id = ? AND status IN ('pending', 'delivered') RETURNING *")
        .all(toId) as ConversationRow[]
    ).map(conversationFromRow);
  }

  /** Marks every open conversation past its deadline expired and returns them. */
  expireDue(now = Date.now()): Conversation[] {
    return (
      this.db
        .query(
          `UPDATE conversations SET status = 'expired'
           WHERE status IN ('pending', 'delivered') AND expires_at IS NOT NULL AND expires_at <= ? RETURNING *`,
        )
        .all(now) as ConversationRow[]
    ).map(conversationFromRow);
  }

  /** Whether the agent asked a question still open (it waits for the answer). */
  openFrom(agentId: string): boolean {
    return this.db.query("SELECT 1 FROM conversations WHERE from_id = ? AND status IN ('pending', 'delivered') LIMIT 1").get(agentId) !== null;
  }

  nextExpiry(): number | null {
    const row = this.db
      .query("SELECT MIN(expires_at) AS at FROM conversations WHERE status IN ('pending', 'delivered') AND expires_at IS NOT NULL")
      .get() as { at: number | null };
    return row.at;
  }
}
