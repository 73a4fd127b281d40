import type { Database } from "../runtime/sqlite.ts";
import type { Conversation } from "../protocol/entities.ts";
import type { Message } from "../protocol/message.ts";
import { CONVERSATION_COLUMNS } from "./conversations.ts";
import { MESSAGE_COLUMNS } from "./messages.ts";
import { EntityColumns, type Covers, type NewOf } from "./entity.ts";
import { SESSION_INPUTS } from "./tables/conversations.ts";

/**
 * One line troupe wrote into a running session's input stream: a message or a question, claimed
 * for that session in the same transaction that records the line (so it is handed out once), and
 * `taken` once the CLI echoed the line's id.
 */
export interface SessionInput {
  /** Orders the session's lines, and names the line's file in its stream. */
  seq: number;
  /** The id the line carries and the CLI's echo gives back. */
  id: string;
  agentId: string;
  session: number;
  messageSeq: number | null;
  conversationId: string | null;
  /** The line as written, so a daemon that died before writing it writes the same again. */
  line: string;
  writtenAt: number;
  takenAt: number | null;
}

const COLUMNS = new EntityColumns(SESSION_INPUTS);
// every field has its column
const covered: Covers<typeof SESSION_INPUTS, SessionInput> = true;
void covered;
const INPUT = COLUMNS.select();

/** What recording a line takes (SESSION_INPUTS: `insert`). */
export type NewSessionInput = NewOf<typeof SESSION_INPUTS, SessionInput>;

export class SessionInputRepo {
  constructor(private readonly db: Database) {}

  add(i: NewSessionInput): SessionInput {
    return this.db.query(`${COLUMNS.insertSql()} RETURNING ${INPUT}`).get(...COLUMNS.insertValues({ ...i, writtenAt: Date.now() })) as SessionInput;
  }

  /** The session's lines its CLI has not taken yet, oldest first. */
  untaken(agentId: string, session: number): SessionInput[] {
    return this.db.query(`SELECT ${INPUT} FROM session_inputs WHERE agent_id = ? AND session = ? AND taken_at IS NULL ORDER BY seq`).all(agentId, session) as SessionInput[];
  }

  /** The lines with these ids, taken now (their echo came); a line taken already or unknown is skipped. */
  take(agentId: string, ids: readonly string[]): SessionInput[] {
    const q = this.db.query(`UPDATE session_inputs SET taken_at = ? WHERE agent_id = ? AND id = ? AND taken_at IS NULL RETURNING ${INPUT}`);
    const now = Date.now();
    return this.db.transaction(() => ids.flatMap((id) => q.all(now, agentId, id) as SessionInput[]))();
  }

  /**
   * Hands the oldest question the session holds (written into its input, not yet taken by its CLI,
   * still unanswered) to the agent's own `listen` instead: its line counts as taken, so the
   * session's end gives nothing back and its stream waits for no echo of it. The way a question
   * reaches an agent that looks for it while its CLI holds the line unread (in a tool call: the
   * `listen` itself). Null when the session holds none.
   */
  takeHeldQuestion(agentId: string, session: number): { input: SessionInput; conversation: Conversation } | null {
    return this.db.transaction(() => {
      const row = this.db
        .query(
          `SELECT si.seq FROM session_inputs si JOIN conversations c ON c.id = si.conversation_id
           WHERE si.agent_id = ? AND si.session = ? AND si.taken_at IS NULL AND c.status = 'delivered'
           ORDER BY si.seq LIMIT 1`,
        )
        .get(agentId, session) as { seq: number } | null;
      if (!row) return null;
      const input = this.db.query(`UPDATE session_inputs SET taken_at = ? WHERE seq = ? RETURNING ${INPUT}`).get(Date.now(), row.seq) as SessionInput;
      const conversation = this.db.query(`SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = ?`).get(input.conversationId) as Conversation;
      return { input, conversation };
    })();
  }

  /** The messages the session holds unread by its CLI (as `takeHeldQuestion`), handed to the agent's own inbox, oldest first. */
  takeHeldMessages(agentId: string, session: number): { inputs: SessionInput[]; messages: Message[] } {
    return this.db.transaction(() => {
      const inputs = (
        this.db
          .query(
            `UPDATE session_inputs SET taken_at = ?1 WHERE seq IN
               (SELECT si.seq FROM session_inputs si JOIN messages m ON m.seq = si.message_seq
                WHERE si.agent_id = ?2 AND si.session = ?3 AND si.taken_at IS NULL AND m.status = 'delivered')
             RETURNING ${INPUT}`,
          )
          .all(Date.now(), agentId, session) as SessionInput[]
      ).sort((a, b) => a.seq - b.seq);
      const get = this.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE seq = ?`);
      return { inputs, messages: inputs.map((i) => get.get(i.messageSeq) as Message) };
    })();
  }

  /** Lines handed to a reader that left before its response: the session holds them again (its CLI's echo or its end settles them). */
  untake(seqs: readonly number[]): void {
    const q = this.db.query("UPDATE session_inputs SET taken_at = NULL WHERE seq = ?");
    this.db.transaction(() => {
      for (const seq of seqs) q.run(seq);
    })();
  }

  /**
   * The agent's sessions up to `session` are over: what their CLIs never took goes back (messages
   * queued, questions pending, each only if still as the line left it), and their lines are
   * forgotten. What was taken stays delivered (a question taken and left unanswered is the
   * conversations' lease to release, as a listener's).
   */
  release(agentId: string, session: number): { messages: Message[]; conversations: Conversation[] } {
    return this.db.transaction(() => {
      const messages = (
        this.db
          .query(
            `UPDATE messages SET status = 'queued', delivered_at = NULL, session = NULL
             WHERE status = 'delivered' AND seq IN
               (SELECT message_seq FROM session_inputs WHERE agent_id = ?1 AND session <= ?2 AND taken_at IS NULL AND message_seq IS NOT NULL)
             RETURNING ${MESSAGE_COLUMNS}`,
          )
          .all(agentId, session) as Message[]
      ).sort((a, b) => a.seq - b.seq);
      const conversations = this.db
        .query(
          `UPDATE conversations SET status = 'pending', lease_session = NULL
           WHERE status = 'delivered' AND id IN
             (SELECT conversation_id FROM session_inputs WHERE agent_id = ?1 AND session <= ?2 AND taken_at IS NULL AND conversation_id IS NOT NULL)
           RETURNING ${CONVERSATION_COLUMNS}`,
        )
        .all(agentId, session) as Conversation[];
      this.db.query("DELETE FROM session_inputs WHERE agent_id = ? AND session <= ?").run(agentId, session);
      return { messages, conversations };
    })();
  }
}
