import type { DaemonEvent } from "../protocol/events.ts";
import { TroupeError, isErrorCode } from "../errors.ts";
import { ENDPOINTS, loadSchema } from "../protocol/api/index.ts";
import { writeQuery } from "../protocol/api/query.ts";
import { ErrorReply, OutputChunkEvent } from "../protocol/api/reply-checks.ts";
import { baseHeaders, deliver } from "./http.ts";
import type { Transport } from "./transport.ts";

const EVENTS = ENDPOINTS.events;

/** `output`: the agents whose output events to receive ([] for none); all when absent. */
export interface EventFilter {
  output?: string[];
  /**
   * Called with the id of the newest event the daemon had when it opened the stream, once its
   * replay is through: every later event comes on the stream, so a reader that opens it again
   * replays from there (a daemon from before sends none).
   */
  onStartId?: (id: number) => void;
}

export interface EventMessage {
  id: number | null;
  event: DaemonEvent;
}

/** Splits a text/event-stream body into messages; comments (heartbeats) are skipped. */
export function parseSseBlock(block: string): { id: string | null; data: string } | null {
  const { id, data } = sseFields(block);
  return data.length ? { id, data: data.join("\n") } : null;
}

/** A block's id and data lines, whether or not it has data (an id alone dispatches nothing). */
function sseFields(block: string): { id: string | null; data: string[] } {
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || line === "") continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "data") data.push(value);
  }
  return { id, data };
}

/**
 * Opens the daemon's event stream from `since` (an event id, replayed from the log). Resolves once
 * the daemon has registered the subscription, so a read made after it cannot miss an event.
 */
export async function openSubscription(
  transport: Transport,
  token: string | undefined,
  since: number | null,
  signal?: AbortSignal,
  filter: EventFilter = {},
  unchecked = false,
): Promise<AsyncGenerator<EventMessage>> {
  const headers = baseHeaders(token, "text/event-stream");
  const path = EVENTS.path + writeQuery(EVENTS.query, { since: since ?? undefined, output: filter.output });
  const eventSchema: EventCheck = unchecked ? { safeParse: (v) => ({ success: true, data: v as DaemonEvent }) } : await loadSchema(EVENTS.reply.schema);
  let res: Response;
  try {
    // as every request: no daemon (or one of an older build) and a transport that can start one, it is started
    res = await deliver(transport, path, { method: EVENTS.method, headers, signal });
  } catch (err) {
    if (err instanceof TroupeError) throw err; // a link's own reason (unreachable, incompatible) says more
    throw new TroupeError("daemon_unavailable", `no daemon answers on ${transport.address}`, { cause: err });
  }
  if (!res.ok) {
    // a build or workspace mismatch: the caller must see why, not a stream that keeps failing
    const parsed = ErrorReply.safeParse(await res.json().catch(() => null));
    if (parsed.success && isErrorCode(parsed.data.error.code)) throw new TroupeError(parsed.data.error.code, parsed.data.error.message);
  }
  if (!res.ok || !res.body) throw new TroupeError("daemon_unavailable", `event stream refused (${res.status})`);
  return readEvents(res.body, eventSchema, signal, filter.onStartId);
}

interface EventCheck {
  safeParse(v: unknown): { success: true; data: DaemonEvent } | { success: false };
}

async function* readEvents(body: ReadableStream<Uint8Array>, eventSchema: EventCheck, signal?: AbortSignal, onStartId?: (id: number) => void): AsyncGenerator<EventMessage> {
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for await (const bytes of body) {
      buf += decoder.decode(bytes, { stream: true });
      // the blocks this read completed, then what is left (one slice, not one per block)
      let start = 0;
      let end: number;
      while ((end = buf.indexOf("\n\n", start)) !== -1) {
        const block = sseFields(buf.slice(start, end));
        start = end + 2;
        if (!block.data.length) {
          // no data: a comment, or the id the stream starts at (once per stream)
          if (onStartId && block.id !== null && /^\d+$/.test(block.id)) onStartId(Number(block.id));
          continue;
        }
        const value: unknown = JSON.parse(block.data.join("\n"));
        // output, the most frequent event, by the check generated from its schema; the rest by the schema
        const output = OutputChunkEvent.safeParse(value);
        const parsed = output.success ? output : eventSchema.safeParse(value);
        if (!parsed.success) continue; // a newer daemon's event type: not ours to render
        yield { id: block.id === null ? null : Number(block.id), event: parsed.data };
      }
      if (start) buf = buf.slice(start);
    }
  } catch (err) {
    if (signal?.aborted) return;
    if (err instanceof TroupeError) throw err;
    throw new TroupeError("daemon_unavailable", "event stream closed", { cause: err });
  }
}

/** The event stream as one generator (connects on first read). */
export async function* subscribe(
  transport: Transport,
  token: string | undefined,
  since: number | null,
  signal?: AbortSignal,
  filter: EventFilter = {},
  unchecked = false,
): AsyncGenerator<EventMessage> {
  let stream: AsyncGenerator<EventMessage>;
  try {
    stream = await openSubscription(transport, token, since, signal, filter, unchecked);
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
  yield* stream;
}
