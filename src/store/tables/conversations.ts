import { z } from "zod";
import type { Table } from "./declaration.ts";

// Conversations, messages, lines written into running sessions, review comments: what is said to agents.

export const CONVERSATIONS = {
  name: "conversations",
  note: "Questions between agents and the person.",
  columns: {
    id: { type: "TEXT", primaryKey: true, field: "id", insert: "required" },
    from_id: { type: "TEXT", notNull: true, field: "fromId", insert: "required" },
    from_name: { type: "TEXT", notNull: true, field: "fromName", insert: "required" },
    to_id: { type: "TEXT", notNull: true, field: "toId", insert: "required" },
    to_name: { type: "TEXT", notNull: true, field: "toName", insert: "required" },
    question: { type: "TEXT", notNull: true, field: "question", insert: "required" },
    answer: { type: "TEXT", field: "answer" },
    answered_by: { type: "TEXT", field: "answeredBy" },
    status: { type: "TEXT", notNull: true, field: "status", insert: "set" },
    task_id: { type: "TEXT", field: "taskId", insert: "required" },
    phase_id: { type: "TEXT", field: "phaseId", insert: "required" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    expires_at: { type: "INTEGER", field: "expiresAt", insert: "required" },
    answered_at: { type: "INTEGER", field: "answeredAt" },
    lease_session: { type: "INTEGER", since: "cleanup-keeps-work", note: "the session a listener claimed it in" },
  },
  indexes: ["CREATE INDEX conversations_to ON conversations(to_id, status, created_at)", "CREATE INDEX conversations_expiry ON conversations(status, expires_at)"],
} as const satisfies Table;

export const MESSAGES = {
  name: "messages",
  note: "Messages and inboxes.",
  columns: {
    seq: { type: "INTEGER", primaryKey: true, autoincrement: true, field: "seq" },
    from_id: { type: "TEXT", notNull: true, field: "fromId", insert: "required" },
    from_name: { type: "TEXT", notNull: true, field: "fromName", insert: "required" },
    to_id: { type: "TEXT", notNull: true, field: "toId", insert: "required" },
    to_name: { type: "TEXT", notNull: true, field: "toName", insert: "required" },
    text: { type: "TEXT", notNull: true, field: "text", insert: "required" },
    status: { type: "TEXT", notNull: true, default: "'queued'", field: "status" },
    wake: { type: "INTEGER", notNull: true, default: "0", field: "wake", select: false, bool: true, insert: "required" },
    session: { type: "INTEGER" },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    delivered_at: { type: "INTEGER", field: "deliveredAt" },
  },
  indexes: ["CREATE INDEX messages_to ON messages(to_id, status, seq)"],
} as const satisfies Table;

export const SESSION_INPUTS = {
  name: "session_inputs",
  note: "Lines written into running sessions' input streams (src/live/), until their session ends (21 session-inputs).",
  columns: {
    seq: { type: "INTEGER", primaryKey: true, autoincrement: true, field: "seq" },
    id: { type: "TEXT", notNull: true, unique: true, field: "id", insert: "required" },
    agent_id: { type: "TEXT", notNull: true, references: "agents(id) ON DELETE CASCADE", field: "agentId", insert: "required" },
    session: { type: "INTEGER", notNull: true, field: "session", insert: "required" },
    message_seq: { type: "INTEGER", field: "messageSeq", insert: "optional" },
    conversation_id: { type: "TEXT", field: "conversationId", insert: "optional" },
    line: { type: "TEXT", notNull: true, field: "line", insert: "required" },
    written_at: { type: "INTEGER", notNull: true, field: "writtenAt", insert: "set" },
    taken_at: { type: "INTEGER", field: "takenAt" },
  },
  indexes: ["CREATE INDEX session_inputs_session ON session_inputs(agent_id, session)"],
} as const satisfies Table;

/** A comment's context: the text of the lines of code around it, to find its line again after the agent changes the file. */
const CommentContext = z.object({ before: z.array(z.string()), after: z.array(z.string()) });

export const REVIEW_COMMENTS = {
  name: "review_comments",
  note: "The person's pending review of an agent's diff: one row per comment, until it is sent (20 review-comments).",
  columns: {
    seq: { type: "INTEGER", primaryKey: true, autoincrement: true, field: "seq" },
    agent_id: { type: "TEXT", notNull: true, references: "agents(id) ON DELETE CASCADE", field: "agentId", insert: "required" },
    file: { type: "TEXT", notNull: true, field: "file", insert: "required" },
    side: { type: "TEXT", notNull: true, note: "new: an added or unchanged line's number; old: a removed line's", field: "side", insert: "required" },
    line: { type: "INTEGER", notNull: true, field: "line", insert: "required" },
    section: { type: "TEXT", note: "committed or uncommitted", field: "section", insert: "required" },
    code: { type: "TEXT", notNull: true, note: "the line's text, without its marker", field: "code", insert: "required" },
    context_json: { type: "TEXT", notNull: true, note: "{before, after}: the text of the lines of code around it", field: "context", json: { schema: CommentContext, fallback: { before: [], after: [] } }, insert: "required" },
    text: { type: "TEXT", notNull: true, field: "text", insert: "required", patch: true },
    created_at: { type: "INTEGER", notNull: true, field: "createdAt", insert: "set" },
    updated_at: { type: "INTEGER", notNull: true, field: "updatedAt", insert: "set", patch: true },
  },
  indexes: ["CREATE INDEX review_comments_agent ON review_comments(agent_id, seq)"],
} as const satisfies Table;
