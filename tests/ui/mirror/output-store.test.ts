import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parserFor, renderChunksWith } from "../../../src/output/render.ts";
import { OutputStore } from "../../../src/ui/mirror/output-store.ts";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { defaultParser, waitFor } from "../helpers/render.tsx";

const texts = (store: OutputStore, id: string, raw = false) => {
  const src = store.get(id)!.source(raw);
  const out: string[] = [];
  for (let i = src.base; i < src.end; i++) out.push(src.at(i).text);
  return out;
};

describe("OutputStore", () => {
  test("loads history in pages, then appends live chunks once, in order", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    for (let i = 0; i < 5; i++) client.write(a.id, `h${i}\n`, { silent: true });
    const store = new OutputStore(client, () => defaultParser, { pageSize: 2 });
    const buf = store.ensure(a.id, a.provider);
    // A chunk that arrives while history loads is queued, and one already in history is not doubled.
    store.onChunk(client.write(a.id, "live\n", { silent: true }));
    await waitFor(() => buf.state === "ready", () => "history loaded");
    expect(texts(store, a.id)).toEqual(["h0", "h1", "h2", "h3", "h4", "live"]);
    expect(client.callsOf("output").length).toBeGreaterThanOrEqual(3);
    store.onChunk(client.chunks.at(-1)!);
    expect(texts(store, a.id)).toHaveLength(6);
    store.dispose();
  });

  test("catching up after a reconnect: a live chunk that comes while the missed ones are fetched loses none of them and doubles none", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    client.write(a.id, "before\n", { silent: true });
    const store = new OutputStore(client, () => defaultParser);
    const buf = store.ensure(a.id, a.provider);
    await waitFor(() => buf.state === "ready", () => "history loaded");
    // written while the event stream was down: only the catch-up by chunk id brings them
    for (let i = 0; i < 3; i++) client.write(a.id, `missed ${i}\n`, { silent: true });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const output = client.output.bind(client);
    client.output = async (...args: Parameters<typeof output>) => {
      await gate;
      return output(...args);
    };
    const caught = store.catchUp();
    // the stream is open again: a new chunk arrives before the fetch of the missed ones answers
    store.onChunk(client.write(a.id, "live\n", { silent: true }));
    release();
    await caught;
    expect(texts(store, a.id)).toEqual(["before", "missed 0", "missed 1", "missed 2", "live"]);
    store.onChunk(client.chunks.at(-1)!);
    expect(texts(store, a.id)).toHaveLength(5);
    store.dispose();
  });

  test("a reconnect while history loads: what was written meanwhile is caught up once history is in", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    client.write(a.id, "old\n", { silent: true });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const output = client.output.bind(client);
    let first = true;
    client.output = async (...args: Parameters<typeof output>) => {
      const page = await output(...args); // the newest page, read before what follows was written
      if (first) {
        first = false;
        await gate;
      }
      return page;
    };
    const store = new OutputStore(client, () => defaultParser);
    const buf = store.ensure(a.id, a.provider);
    await waitFor(() => client.callsOf("output").length > 0, () => "history asked for");
    client.write(a.id, "missed\n", { silent: true }); // while the stream was down
    const caught = store.catchUp();
    release();
    await caught;
    await waitFor(() => buf.state === "ready", () => "history loaded");
    expect(texts(store, a.id)).toEqual(["old", "missed"]);
    store.dispose();
  });

  test("keeps at most its cap of lines, however long the output", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    const store = new OutputStore(client, () => defaultParser, { cap: 100 });
    const buf = store.ensure(a.id, a.provider);
    await waitFor(() => buf.state === "ready", () => "ready");
    for (let i = 0; i < 1000; i++) store.onChunk(client.write(a.id, `line ${i}\n`, { silent: true }));
    const src = buf.source(false);
    expect(src.end).toBe(1000);
    expect(src.end - src.base).toBeLessThanOrEqual(150);
    expect(src.at(src.end - 1).text).toBe("line 999");
    expect(buf.total).toBe(1000);
    store.dispose();
  });

  test("output of agents not on screen is not kept; the least recently shown is dropped", async () => {
    const agents = [makeAgent(), makeAgent(), makeAgent()];
    const client = new FakeClient(agents);
    const store = new OutputStore(client, () => defaultParser, { keep: 1 });
    store.onChunk(client.write(agents[0]!.id, "x\n", { silent: true }));
    expect(store.get(agents[0]!.id)).toBeUndefined();
    for (const a of agents) store.ensure(a.id, a.provider);
    expect(store.get(agents[0]!.id)).toBeUndefined();
    expect(store.get(agents[2]!.id)).toBeDefined();
    store.dispose();
  });

  test("raw and rendered views of the same lines", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    client.write(a.id, '{"text":"hi"}\n\x1b[31mred\x1b[0m\n', { silent: true });
    const store = new OutputStore(client, () => defaultParser);
    const buf = store.ensure(a.id, a.provider);
    await waitFor(() => buf.state === "ready", () => "ready");
    expect(texts(store, a.id)).toEqual(["hi", "red"]);
    expect(texts(store, a.id, true)).toEqual(['{"text":"hi"}', "red"]);
    store.dispose();
  });
});

test("opening a long history reads it from the end, only the pages holding the lines it keeps", async () => {
  const a = makeAgent();
  const client = new FakeClient([a]);
  for (let i = 0; i < 100; i++) client.write(a.id, Array.from({ length: 10 }, (_, j) => `l${i * 10 + j}\n`).join(""), { silent: true });
  const output = client.output.bind(client);
  let pages = 0;
  client.output = (ref, q) => {
    pages++;
    return output(ref, q);
  };
  let parsed = 0;
  const store = new OutputStore(client, () => (line, stream) => {
    parsed++;
    return defaultParser(line, stream);
  }, { cap: 50, pageSize: 7 });
  const buf = store.ensure(a.id, a.provider);
  await waitFor(() => buf.state === "ready", () => "ready");
  expect(pages).toBe(1); // 7 chunks of 10 lines cover the 50 kept
  expect(buf.total).toBe(70);
  expect(parsed).toBeLessThanOrEqual(60); // the chunks holding the 50 kept lines, not the whole page
  const src = buf.source(false);
  expect(src.at(src.end - 1).text).toBe("l999");
  expect(src.end - src.base).toBeGreaterThanOrEqual(50);
  store.onChunk(client.write(a.id, "l1000\n", { silent: true }));
  expect(src.at(src.end - 1).text).toBe("l1000");
  store.dispose();
});

test("a page cut short by its size is not mistaken for the end", async () => {
  const a = makeAgent();
  const client = new FakeClient([a]);
  for (let i = 0; i < 5; i++) client.write(a.id, `${String(i).repeat(40_000)}\n`, { silent: true });
  const store = new OutputStore(client, () => defaultParser, { pageSize: 200 });
  const buf = store.ensure(a.id, a.provider);
  await waitFor(() => buf.state === "ready", () => "ready");
  expect(buf.total).toBe(5);
  store.dispose();
});

test("streamed text deltas join into one line however they fall into chunks, live or from history (the recorded gemini run)", async () => {
  const data = readFileSync(join(import.meta.dir, "../..", "fixtures", "gemini", "success.stdout.jsonl"), "utf8");
  const answer = "The folder holds README.md and nothing else. Done.";
  const lines = data.split("\n").filter((l) => l !== "").map((l) => `${l}\n`);
  const a = makeAgent({ provider: "gemini" });
  const client = new FakeClient([a]);
  // history: the first half in two-line chunks; then live, one line per chunk
  const half = Math.floor(lines.length / 2);
  for (let i = 0; i < half; i += 2) client.write(a.id, lines.slice(i, Math.min(i + 2, half)).join(""), { silent: true });
  const store = new OutputStore(client, parserFor, { pageSize: 3 });
  const buf = store.ensure(a.id, a.provider);
  await waitFor(() => buf.state === "ready", () => "history loaded");
  for (const l of lines.slice(half)) store.onChunk(client.write(a.id, l, { silent: true }));
  const shown = texts(store, a.id);
  expect(shown.filter((t) => t.includes("README"))).toEqual([answer]);
  expect(shown).toEqual(renderChunksWith(parserFor("gemini"), [{ ...client.chunks[0]!, data }], { raw: false }).map((l) => l.text));
  // the raw view keeps one line per line written
  expect(texts(store, a.id, true)).toHaveLength(lines.length);
  store.dispose();
});
