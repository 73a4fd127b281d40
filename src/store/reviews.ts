import type { Database } from "../runtime/sqlite.ts";
import type { DiffSection, ReviewSide } from "../protocol/review.ts";

interface Row {
  seq: number;
  agent_id: string;
  file: string;
  side: string;
  line: number;
  section: string | null;
  code: string;
  context_json: string;
  text: string;
  created_at: number;
  updated_at: number;
}

/** A comment as stored: where it was made (its anchor) and what it says. */
export interface StoredComment {
  id: string;
  seq: number;
  agentId: string;
  file: string;
  side: ReviewSide;
  line: number;
  section: DiffSection | null;
  code: string;
  before: string[];
  after: string[];
  text: string;
  createdAt: number;
  updatedAt: number;
}

export type NewComment = Omit<StoredComment, "id" | "seq" | "createdAt" | "updatedAt">;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function fromRow(r: Row): StoredComment {
  let context: { before?: unknown; after?: unknown } = {};
  try {
    context = JSON.parse(r.context_json) as typeof context;
  } catch {
    // a damaged context only makes the comment harder to find again
  }
  return {
    id: `rc_${r.seq}`,
    seq: r.seq,
    agentId: r.agent_id,
    file: r.file,
    side: r.side === "old" ? "old" : "new",
    line: r.line,
    section: r.section === "committed" || r.section === "uncommitted" ? r.section : null,
    code: r.code,
    before: strings(context.before),
    after: strings(context.after),
    text: r.text,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `rc_<n>` → n; null for anything else. */
export function commentSeq(id: string): number | null {
  const m = /^rc_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** The person's pending reviews: each agent's comments, oldest first, until the review is sent (then they are deleted). */
export class ReviewRepo {
  constructor(private readonly db: Database) {}

  forAgent(agentId: string): StoredComment[] {
    return (this.db.query("SELECT * FROM review_comments WHERE agent_id = ? ORDER BY seq").all(agentId) as Row[]).map(fromRow);
  }

  count(agentId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM review_comments WHERE agent_id = ?").get(agentId) as { n: number }).n;
  }

  get(seq: number): StoredComment | null {
    const row = this.db.query("SELECT * FROM review_comments WHERE seq = ?").get(seq) as Row | null;
    return row ? fromRow(row) : null;
  }

  insert(c: NewComment): StoredComment {
    const now = Date.now();
    const row = this.db
      .query(
        `INSERT INTO review_comments (agent_id, file, side, line, section, code, context_json, text, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(c.agentId, c.file, c.side, c.line, c.section, c.code, JSON.stringify({ before: c.before, after: c.after }), c.text, now, now) as Row;
    return fromRow(row);
  }

  setText(seq: number, text: string): StoredComment | null {
    const row = this.db.query("UPDATE review_comments SET text = ?, updated_at = ? WHERE seq = ? RETURNING *").get(text, Date.now(), seq) as Row | null;
    return row ? fromRow(row) : null;
  }

  delete(seq: number): boolean {
    return this.db.query("DELETE FROM review_comments WHERE seq = ? RETURNING seq").get(seq) !== null;
  }

  /** The comments `seqs` of a review just sent; the rest (made meanwhile) stay pending. */
  deleteSent(seqs: number[]): void {
    const del = this.db.query("DELETE FROM review_comments WHERE seq = ?");
    this.db.transaction(() => {
      for (const s of seqs) del.run(s);
    })();
  }
}
