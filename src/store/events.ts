import type { Database } from "../runtime/sqlite.ts";
import { DaemonEventSchema, type DaemonEvent } from "../protocol/events.ts";

/** The durable event log: lifecycle events, replayable by id after a reconnect (output lives in chunks). */
export class EventRepo {
  constructor(private readonly db: Database) {}

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
      const parsed = DaemonEventSchema.safeParse(JSON.parse(r.payload));
      if (parsed.success) out.push({ id: r.id, event: parsed.data });
    }
    return out;
  }

  /** The oldest id still kept (0 when none): a `since` below it means events were pruned. */
  firstId(): number {
    return (this.db.query("SELECT COALESCE(MIN(id), 0) AS id FROM events").get() as { id: number }).id;
  }

  /** Keeps the newest `keep` events; older ones are covered by a full refetch. */
  prune(keep = 50_000): void {
    this.db.query("DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?").run(keep);
  }
}
