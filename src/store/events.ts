import type { Database } from "../runtime/sqlite.ts";
import { DaemonEventSchema, type DaemonEvent } from "../protocol/events.ts";
import { EntityColumns, type Covers, type StoreWarnings } from "./entity.ts";
import { EVENTS } from "./tables/events.ts";

/** An event as its row reads: its payload still JSON text, checked by the schema as it is replayed. */
interface EventRow {
  id: number;
  payload: string;
}
/** The row and what is only written: the event's type (its payload says it too), when it was stored. */
type Written = EventRow & { type: string; createdAt: number };
const COLUMNS = new EntityColumns(EVENTS);
const covered: Covers<typeof EVENTS, EventRow, never, Written> = true;
void covered;

/** The durable event log: lifecycle events, replayable by id after a reconnect (output lives in chunks). */
export class EventRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  append(event: DaemonEvent): number {
    const row = this.db
      .query(`${COLUMNS.insertSql()} RETURNING id`)
      .get(...COLUMNS.insertValues({ type: event.type, payload: JSON.stringify(event), createdAt: Date.now() } satisfies Omit<Written, "id">)) as { id: number };
    return row.id;
  }

  since(id: number, limit = 5000): { id: number; event: DaemonEvent }[] {
    const rows = this.db.query(`SELECT ${COLUMNS.select()} FROM events WHERE id > ? ORDER BY id LIMIT ?`).all(id, limit) as EventRow[];
    const out: { id: number; event: DaemonEvent }[] = [];
    for (const r of rows) {
      // a damaged or unknown event is skipped (reported): the subscriber's next refetch covers it
      let payload: unknown;
      try {
        payload = JSON.parse(r.payload);
      } catch (err) {
        this.w.warn(`event ${r.id} is not JSON; not replayed`, err);
        continue;
      }
      const parsed = DaemonEventSchema.safeParse(payload);
      if (parsed.success) out.push({ id: r.id, event: parsed.data });
      else this.w.warn(`event ${r.id} is malformed (${parsed.error.issues[0]?.message ?? "invalid"}); not replayed`);
    }
    return out;
  }

  /** The newest id (0 when none): where a subscription opened now starts. */
  lastId(): number {
    return (this.db.query("SELECT COALESCE(MAX(id), 0) AS id FROM events").get() as { id: number }).id;
  }

  /** The oldest id still kept (0 when none): a `since` below it means events were pruned. */
  firstId(): number {
    return (this.db.query("SELECT COALESCE(MIN(id), 0) AS id FROM events").get() as { id: number }).id;
  }

  /**
   * Blanks the events about a removed agent (its status changes carry its prompt, result and
   * error; its permission requests their tool input): each becomes the `agent:removed` the agent
   * ended with, keeping its id, so a replay neither breaks off (as a gap would: a resync) nor
   * shows what was removed. Events that only name it (a worker's `parentId`, a conversation it
   * took part in) stay as they are.
   */
  forgetAgent(agentId: string): void {
    const about = `CASE WHEN json_valid(payload) THEN ${["$.agent.id", "$.agentId", "$.request.agentId"].map((p) => `json_extract(payload, '${p}') = ?2`).join(" OR ")} END`;
    this.db.query(`UPDATE events SET type = 'agent:removed', payload = ?1 WHERE ${about}`).run(JSON.stringify({ type: "agent:removed", agentId }), agentId);
  }

  /** Keeps the newest `keep` events; older ones are covered by a full refetch. */
  prune(keep = 50_000): void {
    this.db.query("DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?").run(keep);
  }
}
