import type { Database } from "../runtime/sqlite.ts";
import type { Conversation } from "../protocol/entities.ts";
import { EntityColumns, type Covers, type NewOf } from "./entity.ts";
import { CONVERSATIONS } from "./tables/conversations.ts";

const COLUMNS = new EntityColumns(CONVERSATIONS);
// every field of a conversation has its column (lease_session is the store's own)
const covered: Covers<typeof CONVERSATIONS, Conversation> = true;
void covered;

/** `column AS field, ...`: a SELECT or RETURNING of these gives conversations as they are (no column needs decoding). */
export const CONVERSATION_COLUMNS = COLUMNS.select();

/** What an insert takes (CONVERSATIONS: `insert`); a conversation starts `pending`. */
export type NewConversation = NewOf<typeof CONVERSATIONS, Conversation>;

export class ConversationRepo {
  constructor(private readonly db: Database) {}

  insert(c: NewConversation): Conversation {
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...c, status: "pending", createdAt: Date.now() }));
    return this.get(c.id)!;
  }

  get(id: string): Conversation | null {
    return this.db.query(`SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = ?`).get(id) as Conversation | null;
  }

  list(q: { pending?: boolean } = {}): Conversation[] {
    const sql = q.pending
      ? `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE status IN ('pending', 'delivered') ORDER BY created_at, rowid`
      : `SELECT ${CONVERSATION_COLUMNS} FROM conversations ORDER BY created_at, rowid`;
    return this.db.query(sql).all() as Conversation[];
  }

  /**
   * Atomically hands the oldest pending conversation for `toId` to one listener. `leaseSession`:
   * the listening agent's session; the conversation goes back to pending if that session ends
   * before it is answered (`releaseLeases`).
   */
  claimNext(toId: string, leaseSession: number | null = null): Conversation | null {
    return this.db
      .query(
        `UPDATE conversations SET status = 'delivered', lease_session = ?
         WHERE id = (SELECT id FROM conversations WHERE to_id = ? AND status = 'pending' ORDER BY created_at, rowid LIMIT 1)
         RETURNING ${CONVERSATION_COLUMNS}`,
      )
      .get(leaseSession, toId) as Conversation | null;
  }

  /** The oldest conversation pending for `toId`, as it is (nothing changes). */
  oldestPending(toId: string): Conversation | null {
    return this.db.query(`SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE to_id = ? AND status = 'pending' ORDER BY created_at, rowid LIMIT 1`).get(toId) as Conversation | null;
  }

  /** Hands one given pending conversation over (delivered); null when it was not pending. */
  claim(id: string): Conversation | null {
    return this.db.query(`UPDATE conversations SET status = 'delivered' WHERE id = ? AND status = 'pending' RETURNING ${CONVERSATION_COLUMNS}`).get(id) as Conversation | null;
  }

  /** Gives a claimed conversation back when the listener left before receiving it. */
  unclaim(id: string): void {
    this.db.query("UPDATE conversations SET status = 'pending', lease_session = NULL WHERE id = ? AND status = 'delivered'").run(id);
  }

  /** Conversations `toId` claimed by listening in a session up to `session` and left unanswered: pending again. */
  releaseLeases(toId: string, session: number): Conversation[] {
    return this.db
      .query(
        `UPDATE conversations SET status = 'pending', lease_session = NULL
         WHERE to_id = ? AND status = 'delivered' AND lease_session IS NOT NULL AND lease_session <= ? RETURNING ${CONVERSATION_COLUMNS}`,
      )
      .all(toId, session) as Conversation[];
  }

  /** Null when it was already answered or expired: only one answer ever lands. */
  answer(id: string, answer: string, by: string): Conversation | null {
    return this.db
      .query(
        `UPDATE conversations SET status = 'answered', answer = ?, answered_by = ?, answered_at = ?
         WHERE id = ? AND status IN ('pending', 'delivered') RETURNING ${CONVERSATION_COLUMNS}`,
      )
      .get(answer, by, Date.now(), id) as Conversation | null;
  }

  /** Expires every open conversation addressed to `toId` (it can no longer answer) and returns them. */
  expireTo(toId: string): Conversation[] {
    return this.db
      .query(`UPDATE conversations SET status = 'expired' WHERE to_id = ? AND status IN ('pending', 'delivered') RETURNING ${CONVERSATION_COLUMNS}`)
      .all(toId) as Conversation[];
  }

  /** Marks every open conversation past its deadline expired and returns them. */
  expireDue(now = Date.now()): Conversation[] {
    return this.db
      .query(
        `UPDATE conversations SET status = 'expired'
         WHERE status IN ('pending', 'delivered') AND expires_at IS NOT NULL AND expires_at <= ? RETURNING ${CONVERSATION_COLUMNS}`,
      )
      .all(now) as Conversation[];
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
