import { DaemonEventSchema, type DaemonEvent } from "../protocol/events.ts";
import { TroupeError, isErrorCode } from "../errors.ts";
import { ErrorBodySchema } from "../protocol/api-base.ts";
import { unixFetch } from "../runtime/serve.ts";
import { baseHeaders, type HttpOptions } from "./http.ts";

/** `output`: the agents whose output events to receive ([] for none); all when absent. */
export interface EventFilter {
  output?: string[];
}

export interface EventMessage {
  id: number | null;
  event: DaemonEvent;
}

/** Splits a text/event-stream body into messages; comments (heartbeats) are skipped. */
export function parseSseBlock(block: string): { id: string | null; data: string } | null {
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
  return data.length ? { id, data: data.join("\n") } : null;
}

/**
 * Opens the daemon's event stream from `since` (an event id, replayed from the log). Resolves once
 * the daemon has registered the subscription, so a read made after it cannot miss an event.
 */
export async function openSubscription(opts: HttpOptions, since: number | null, signal?: AbortSignal, filter: EventFilter = {}): Promise<AsyncGenerator<EventMessage>> {
  const headers = baseHeaders(opts, "text/event-stream");
  const params = new URLSearchParams();
  if (since !== null) params.set("since", String(since));
  if (filter.output !== undefined) params.set("output", filter.output.length ? filter.output.join(",") : "none");
  const query = params.size ? `?${params}` : "";
  let res: Response;
  try {
    res = await unixFetch(opts.socket, `http://troupe/v1/events${query}`, { headers, signal });
  } catch (err) {
    throw new TroupeError("daemon_unavailable", `no daemon answers on ${opts.socket}`, { cause: err });
  }
  if (res.status === 409) {
    // a build mismatch: the caller must see which side is stale, not a stream that keeps failing
    const parsed = ErrorBodySchema.safeParse(await res.json().catch(() => null));
    if (parsed.success && isErrorCode(parsed.data.error.code)) throw new TroupeError(parsed.data.error.code, parsed.data.error.message);
  }
  if (!res.ok || !res.body) throw new TroupeError("daemon_unavailable", `event stream refused (${res.status})`);
  return readEvents(res.body, signal);
}

async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<EventMessage> {
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for await (const bytes of body) {
      buf += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buf.indexOf("\n\n")) !== -1) {
        const block = parseSseBlock(buf.slice(0, end));
        buf = buf.slice(end + 2);
        if (!block) continue;
        const parsed = DaemonEventSchema.safeParse(JSON.parse(block.data));
        if (!parsed.success) continue; // a newer daemon's event type: not ours to render
        yield { id: block.id === null ? null : Number(block.id), event: parsed.data };
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw new TroupeError("daemon_unavailable", "event stream closed", { cause: err });
  }
}

/** The event stream as one generator (connects on first read). */
export async function* subscribe(opts: HttpOptions, since: number | null, signal?: AbortSignal, filter: EventFilter = {}): AsyncGenerator<EventMessage> {
  let stream: AsyncGenerator<EventMessage>;
  try {
    stream = await openSubscription(opts, since, signal, filter);
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
  yield* stream;
}
