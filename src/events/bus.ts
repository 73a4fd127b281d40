import type { DaemonEvent } from "../protocol/events.ts";
import type { EventRepo } from "../store/events.ts";

export interface Published {
  /** Durable events get an id from the event log; output events are identified by their chunk. */
  id: number | null;
  event: DaemonEvent;
}

type Listener = (p: Published) => void;

/** The one place events are emitted: persisted first (lifecycle), then fanned out synchronously. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly log: EventRepo) {}

  publish(event: DaemonEvent): Published {
    const id = event.type === "agent:output" || event.type === "resync" ? null : this.log.append(event);
    const p = { id, event };
    for (const l of this.listeners) l(p);
    return p;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Resolves with the first event `match` accepts, or null after `ms` or when `signal` aborts. */
  waitFor<T>(match: (p: Published) => T | null | undefined, ms: number, signal?: AbortSignal): Promise<T | null> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: T | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        off();
        signal?.removeEventListener("abort", onAbort);
        resolve(v);
      };
      const onAbort = () => finish(null);
      const off = this.subscribe((p) => {
        const v = match(p);
        if (v !== null && v !== undefined) finish(v);
      });
      const timer = setTimeout(() => finish(null), ms);
      signal?.addEventListener("abort", onAbort);
    });
  }
}
