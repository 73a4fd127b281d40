import { describe, expect, test } from "bun:test";
import { sseStream, SSE_QUEUE_LIMIT } from "../../src/daemon/sse.ts";
import type { WirePublished } from "../../src/events/bus.ts";
import { parseSseBlock } from "../../src/client/sse.ts";

const output = (i: number): WirePublished => ({
  id: null,
  event: { type: "agent:output", chunk: { id: i, agentId: "a", session: 1, stream: "stdout", data: `${i}\n`, createdAt: 0 } },
});

describe("SSE subscriber queue", () => {
  test("a subscriber that reads delivers every event in order", async () => {
    let emit!: (p: WirePublished) => void;
    const stream = sseStream([], (l) => ((emit = l), () => {}));
    for (let i = 1; i <= 10; i++) emit(output(i));
    const reader = stream.getReader();
    const text = new TextDecoder().decode((await reader.read()).value!);
    const ids = text.split("\n\n").map(parseSseBlock).filter(Boolean).map((b) => JSON.parse(b!.data).chunk.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await reader.cancel();
  });

  test("the replay, then the id the stream starts at (no data: nothing dispatched), then live events", async () => {
    let emit!: (p: WirePublished) => void;
    const replayed: WirePublished = { id: 7, event: { type: "agent:removed", agentId: "a" } };
    const stream = sseStream([replayed], (l) => ((emit = l), () => {}), 7);
    emit(output(1));
    const reader = stream.getReader();
    const blocks = new TextDecoder().decode((await reader.read()).value!).split("\n\n").filter(Boolean);
    expect(blocks).toEqual([": connected", expect.stringContaining("id: 7\n"), "id: 7", expect.stringContaining('"agent:output"')]);
    expect(parseSseBlock(blocks[2]!)).toBeNull();
    await reader.cancel();
  });

  test("a subscriber that falls more than the limit behind gets one resync instead of an unbounded backlog", async () => {
    let emit!: (p: WirePublished) => void;
    let unsubscribed = false;
    const stream = sseStream([], (l) => ((emit = l), () => (unsubscribed = true)));
    for (let i = 1; i <= SSE_QUEUE_LIMIT + 5; i++) emit(output(i));
    const reader = stream.getReader();
    const blocks = new TextDecoder().decode((await reader.read()).value!).split("\n\n").map(parseSseBlock).filter(Boolean);
    const events = blocks.map((b) => JSON.parse(b!.data));
    expect(events[0]).toEqual({ type: "resync", reason: `more than ${SSE_QUEUE_LIMIT} events queued` });
    expect(events.length).toBeLessThanOrEqual(6);
    expect(events.slice(1).map((e) => e.chunk.id)).toEqual([SSE_QUEUE_LIMIT + 1, SSE_QUEUE_LIMIT + 2, SSE_QUEUE_LIMIT + 3, SSE_QUEUE_LIMIT + 4, SSE_QUEUE_LIMIT + 5]);
    await reader.cancel();
    expect(unsubscribed).toBe(true);
  });
});
