import type { DaemonEvent } from "../events.ts";
import type { OutputChunk, Stream } from "../output.ts";
import { isObject } from "./replies.ts";

/**
 * A hand-written check of the event stream's most frequent event, `agent:output`, as strict as
 * its zod schema (DaemonEventSchema; tests/protocol/api/output-event.test.ts holds them equal):
 * a dashboard reads one per piece of output of every agent it follows, and zod's check of each was
 * a few per cent of a core while one agent streamed. Every other event is parsed by zod.
 */

const STREAMS: ReadonlySet<Stream> = new Set(["stdout", "stderr", "troupe"]);
const int = (v: unknown): v is number => Number.isSafeInteger(v);

/** The event, as zod would give it (unknown keys dropped), when `v` is a valid `agent:output`; null otherwise. */
export function readOutputEvent(v: unknown): Extract<DaemonEvent, { type: "agent:output" }> | null {
  if (!isObject(v) || v.type !== "agent:output") return null;
  const c = v.chunk;
  if (!isObject(c)) return null;
  const { id, agentId, session, stream, data, createdAt } = c;
  if (!int(id) || typeof agentId !== "string" || !int(session) || !STREAMS.has(stream as Stream) || typeof data !== "string" || !int(createdAt)) return null;
  const chunk: OutputChunk = { id, agentId, session, stream: stream as Stream, data, createdAt };
  return { type: "agent:output", chunk };
}
