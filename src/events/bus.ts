import type { DaemonEvent } from "../protocol/events.ts";
import type { Agent } from "../protocol/entities.ts";
import type { EventRepo } from "../store/events.ts";
import type { Logger } from "./log.ts";

/**
 * Events inside the daemon: never persisted, never sent to subscribers (clients learn the same
 * from `agent:updated`). Both are announcements by the end-of-run sequence
 * (src/services/end-of-run.ts), for observers: what follows an end is that sequence's steps, not
 * listeners of these. `agent:ended`: a run of the agent is over; `agent.status` says how (done,
 * waiting, failed, stopped). `agent:detached`: the person's interactive CLI on the agent exited
 * and the agent is back in the status it had before (`agent.status`). Not an end: nothing of its
 * run is imported again.
 */
type InternalEvent =
  | { type: "agent:ended"; agent: Agent; session: number; exitCode: number | null }
  | { type: "agent:detached"; agent: Agent; session: number };

export type BusEvent = DaemonEvent | InternalEvent;

export interface Published<E extends BusEvent = BusEvent> {
  /** Durable events get an id from the event log; output events are identified by their chunk. */
  id: number | null;
  event: E;
}

/** What subscribers of the event stream may see. */
export type WirePublished = Published<DaemonEvent>;

export const isWire = (p: Published): p is WirePublished => p.event.type !== "agent:ended" && p.event.type !== "agent:detached";

type Listener = (p: Published) => void;

/** Lifecycle events are kept for replay; output lives in its chunks, the rest is momentary. */
const isDurable = (e: BusEvent): e is Exclude<DaemonEvent, { type: "agent:output" | "resync" }> =>
  e.type !== "agent:output" && e.type !== "resync" && e.type !== "agent:ended" && e.type !== "agent:detached";

/**
 * The one place events are emitted: persisted first (lifecycle), then fanned out synchronously.
 * A listener that publishes does not interleave: its event is delivered to every listener after
 * the one being delivered, so all listeners see events in the same order (the order of their ids).
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private readonly queue: Published[] = [];
  private delivering = false;

  constructor(
    private readonly repo: EventRepo,
    private readonly log: Logger,
  ) {}

  publish(event: BusEvent): Published {
    const p: Published = { id: isDurable(event) ? this.repo.append(event) : null, event };
    this.queue.push(p);
    if (this.delivering) return p;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.deliver(next);
    } finally {
      this.delivering = false;
    }
    return p;
  }

  /** A listener that throws is logged and skipped; the others still get the event. */
  private deliver(p: Published): void {
    for (const l of this.listeners) {
      try {
        l(p);
      } catch (err) {
        this.log.error(`a listener of ${p.event.type} threw`, err);
      }
    }
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
