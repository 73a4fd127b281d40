import type { WirePublished } from "../events/bus.ts";

/** Events a subscriber may have queued before it is considered too slow... */
export const SSE_QUEUE_LIMIT = 1000;
/** ...or bytes: a thousand large output chunks must not pin hundreds of MB for one slow reader. */
const SSE_QUEUE_BYTES = 8 * 1024 * 1024;

const encoder = new TextEncoder();

/** Each event is serialized once, however many subscribers send it. */
const frames = new WeakMap<WirePublished, string>();

function frame(p: WirePublished): string {
  let f = frames.get(p);
  if (f === undefined) {
    const id = p.id === null ? "" : `id: ${p.id}\n`;
    f = `${id}event: ${p.event.type}\ndata: ${JSON.stringify(p.event)}\n\n`;
    frames.set(p, f);
  }
  return f;
}

/**
 * One subscriber's stream. Overflow policy: when more than SSE_QUEUE_LIMIT frames or
 * SSE_QUEUE_BYTES wait (the client reads too slowly), the backlog is dropped and replaced by one `resync` event;
 * the client then refetches state. The daemon never blocks on, or buffers without bound for,
 * a slow client. No heartbeat: on a Unix socket a client that goes away closes the connection and
 * the stream ends at once (cancel), and clients reconnect when the stream ends, never on silence;
 * a ping every 15 s only woke every idle dashboard and the daemon.
 */
export function sseStream(initial: WirePublished[], subscribe: (l: (p: WirePublished) => void) => () => void, startId?: number): ReadableStream<Uint8Array> {
  const queue: string[] = initial.map(frame);
  let queuedBytes = 0;
  let wake: (() => void) | null = null;
  let closed = false;
  let unsubscribe = () => {};

  const push = (s: string) => {
    if (closed) return;
    if (queue.length >= SSE_QUEUE_LIMIT || queuedBytes + s.length > SSE_QUEUE_BYTES) {
      const reason = queue.length >= SSE_QUEUE_LIMIT ? `more than ${SSE_QUEUE_LIMIT} events queued` : `more than ${SSE_QUEUE_BYTES} bytes queued`;
      queue.length = 0;
      const r = frame({ id: null, event: { type: "resync", reason } });
      queue.push(r);
      queuedBytes = r.length;
    } else {
      queue.push(s);
      queuedBytes += s.length;
    }
    wake?.();
  };

  const cleanup = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };

  // bytes, as a response body must be (Bun also takes strings; Deno ends the stream on one)
  return new ReadableStream<Uint8Array>({
    start() {
      unsubscribe = subscribe((p) => push(frame(p)));
      queue.unshift(": connected\n\n");
      // after the replay, before live events: an id with no data sets the reader's last id and
      // dispatches nothing (the SSE rule), so a reader that opens the stream again replays from here
      if (startId !== undefined) queue.push(`id: ${startId}\n\n`);
    },
    async pull(controller) {
      while (queue.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
      wake = null;
      if (closed) return controller.close();
      controller.enqueue(encoder.encode(queue.splice(0, queue.length).join("")));
      queuedBytes = 0;
    },
    cancel: cleanup,
  });
}
