import type { Store } from "../store/index.ts";
import { chunkLines, parserFor } from "../output/render.ts";

/** The stored chunks looked at: a turn's last lines (a result, maybe a rate-limit line) are in these. */
const TAIL_CHUNKS = 8;

/**
 * Whether the session's stored output ends with a finished turn (its last event a `result`): the
 * CLI then waits for its next line of input. What a restarted daemon asks of a stream it picks up.
 */
export function lastTurnEnded(store: Store, provider: string, agentId: string, session: number): boolean {
  const parse = parserFor(provider);
  let last: string | null = null;
  for (const chunk of store.chunks.list(agentId, { before: Number.MAX_SAFE_INTEGER, session, limit: TAIL_CHUNKS })) {
    if (chunk.stream !== "stdout") continue;
    for (const line of chunkLines(chunk)) {
      for (const ev of parse(line, chunk.stream)) last = ev.kind;
    }
  }
  return last === "result";
}
