import type { EventRepo } from "../store/events.ts";
import { isWire, type EventBus, type WirePublished } from "./bus.ts";

/** Most events replayed to a reconnecting subscriber; further behind, it gets a resync. */
const REPLAY_LIMIT = 5000;

export interface FeedQuery {
  /** The last event id the subscriber has; its later events are replayed first. */
  since?: number;
  /** Agents whose output events are wanted: null for all, an empty set for none (lifecycle events always flow). */
  output: ReadonlySet<string> | null;
}

export interface Feed {
  /** What the subscriber missed: replayed events, or one `resync` when that cannot be done. */
  backlog: WirePublished[];
  /**
   * The id of the newest event when the subscription was opened (0 for none): every later one
   * comes on the stream. Sent first, so that a client that opens the stream again (another output
   * filter) replays from there without a refetch, even when no numbered event came meanwhile.
   */
  startId: number;
  subscribe(listener: (p: WirePublished) => void): () => void;
}

/** The event stream clients follow: a replay from where they left, then live events. */
export class EventFeed {
  constructor(
    private readonly repo: EventRepo,
    private readonly bus: EventBus,
  ) {}

  open(q: FeedQuery): Feed {
    let backlog: WirePublished[] = q.since === undefined ? [] : this.repo.since(q.since, REPLAY_LIMIT);
    // more missed than we replay, or some already pruned: the client must refetch instead
    if (q.since !== undefined && (backlog.length === REPLAY_LIMIT || q.since + 1 < this.repo.firstId())) {
      backlog = [{ id: null, event: { type: "resync", reason: "too many events missed to replay" } }];
    }
    const keep = (p: WirePublished) => q.output === null || p.event.type !== "agent:output" || q.output.has(p.event.chunk.agentId);
    return {
      backlog,
      // read in the same turn as the subscription is made (sseStream's start): no event between them
      startId: this.repo.lastId(),
      subscribe: (l) => this.bus.subscribe((p) => isWire(p) && keep(p) && l(p)),
    };
  }
}
