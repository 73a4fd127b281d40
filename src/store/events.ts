import type { Database } from "../runtime/sqlite.ts";
import { DaemonEventSchema, type DaemonEvent } from "../protocol/events.ts";
import type { StoreWarnings } from "./agents.ts";

/** The durable event log: lifecycle events, replayable by id after a reconnect (output lives in chunks). */
export class EventRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  append(event: DaemonEvent): number {
    const row = this.db
      .query("INSERT INTO events (type, payload, created_at) VALUES (?, ?, ?) RETURNING id")
      .get(event.type, JSON.stringify(event), Date.now()) as { id: number };
    return row.id;
  }

  since(id: number, limit = 5000): { id: number; event: DaemonEvent }[] {
    const rows = this.db.query("SELECT id, payload FROM events WHERE id > ? ORDER BY id LIMIT ?").all(id, limit) as { id: number; payload: string }[];
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

  /** The oldest id still kept (0 when none): a `since` below it means events were pruned. */
  firstId(): number {
    return (this.db.query("SELECT COALESCE(MIN(id), 0) AS id FROM events").get() as { id: number }).id;
  }

  /**
   * Forgets the events about an agent (its status changes carry its prompt, result and error): it
   * was removed, and nothing of it stays. A subscriber behind them refetches, as after a prune.
   */
  forgetAgent(agentId: string): void {
    // ids are random and quoted in the payload: no other text matches
    this.db.query("DELETE FROM events WHERE instr(payload, ?) > 0").run(JSON.stringify(agentId));
  }

  /** Keeps the newest `keep` events; older ones are covered by a full refetch. */
  prune(keep = 50_000): void {
    this.db.query("DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?").run(keep);
  }
}
