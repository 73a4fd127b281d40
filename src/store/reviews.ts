import type { Database } from "../runtime/sqlite.ts";
import type { DiffSection, ReviewSide } from "../protocol/review.ts";
import { EntityColumns, type Covers, type NewOf, type PatchOf, type StoreWarnings } from "./entity.ts";
import { REVIEW_COMMENTS } from "./tables/conversations.ts";

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

/** The comment as its row reads: the lines around it in one field (one JSON column). */
type Row = Omit<StoredComment, "before" | "after"> & { context: Pick<StoredComment, "before" | "after"> };
// every field of the row has its column but its id, made of its seq
const covered: Covers<typeof REVIEW_COMMENTS, Row, "id"> = true;
void covered;

export type NewComment = Omit<StoredComment, "id" | "seq" | "createdAt" | "updatedAt">;
type NewRow = NewOf<typeof REVIEW_COMMENTS, Row>;
type Patch = PatchOf<typeof REVIEW_COMMENTS, Row>;

const COLUMNS = new EntityColumns(REVIEW_COMMENTS);
/** `'rc_' || seq AS id, column AS field, ...`: a SELECT or RETURNING of these gives the row. */
const SELECTED = `'rc_' || seq AS id, ${COLUMNS.select()}`;

/** `rc_<n>` → n; null for anything else. */
export function commentSeq(id: string): number | null {
  const m = /^rc_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** The person's pending reviews: each agent's comments, oldest first, until the review is sent (then they are deleted). */
export class ReviewRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  private read(row: Record<string, unknown> | null): StoredComment | null {
    if (!row) return null;
    COLUMNS.decode(row, `review comment ${row.id}`, this.w);
    const { context, ...rest } = row as unknown as Row;
    return { ...rest, before: context.before, after: context.after };
  }

  forAgent(agentId: string): StoredComment[] {
    return (this.db.query(`SELECT ${SELECTED} FROM review_comments WHERE agent_id = ? ORDER BY seq`).all(agentId) as Record<string, unknown>[]).map((r) => this.read(r)!);
  }

  count(agentId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM review_comments WHERE agent_id = ?").get(agentId) as { n: number }).n;
  }

  get(seq: number): StoredComment | null {
    return this.read(this.db.query(`SELECT ${SELECTED} FROM review_comments WHERE seq = ?`).get(seq) as Record<string, unknown> | null);
  }

  insert({ before, after, ...c }: NewComment): StoredComment {
    const now = Date.now();
    const row: NewRow & { createdAt: number; updatedAt: number } = { ...c, context: { before, after }, createdAt: now, updatedAt: now };
    return this.read(this.db.query(`${COLUMNS.insertSql()} RETURNING ${SELECTED}`).get(...COLUMNS.insertValues(row)) as Record<string, unknown>)!;
  }

  setText(seq: number, text: string): StoredComment | null {
    const patch: Patch = { text, updatedAt: Date.now() };
    const { sets, values } = COLUMNS.assignments(patch);
    return this.read(this.db.query(`UPDATE review_comments SET ${sets.join(", ")} WHERE seq = ? RETURNING ${SELECTED}`).get(...values, seq) as Record<string, unknown> | null);
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
