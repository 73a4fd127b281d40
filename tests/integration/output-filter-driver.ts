/**
 * The dashboard's mirror as the dashboard drives it, run by tests/integration/output-filter.test.ts
 * on the runtime of the build under test (Bun, or Deno for dist/troupe-deno): the mirror's own
 * fetches and stream aborts are the runtime's. Runtime-neutral on purpose (no Bun.*, no Deno.*).
 *
 * `driver SOCKET GATE LINES`: with three agents (`one`, `two`, `three`) waiting for GATE, and a
 * fourth (`four`) that writes a line every 20 ms from GATE on, it loads one, creates GATE, moves
 * the selection between the three with a garbage collection before each move (on Deno one made an
 * abort of the event stream reach nothing), ends with `two` and `three` loaded, waits until each
 * wrote its LINES lines, then, after one more collection, selects `four` and waits for 50 more of
 * its lines to arrive live. It prints one JSON line: what each loaded agent's buffer holds, how often the whole state was fetched again, whether
 * `one` is still loaded, how many live chunks came for an agent not loaded, and every connection
 * state seen.
 */
import { writeFileSync } from "node:fs";
import { TroupeClient } from "../../src/client/client.ts";
import { DaemonMirror } from "../../src/ui/mirror/daemon-mirror.ts";
import { parserFor } from "../../src/output/render.ts";
import { gc } from "../../src/runtime/process.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const [socket, gate, linesArg] = process.argv.slice(2);
const LINES = Number(linesArg);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const client = new TroupeClient({ socket: socket! });
const mirror = new DaemonMirror(client, parserFor, { output: { keep: 1 } });
const states: string[] = [];
mirror.subscribe(() => states.push(mirror.getView().connection.state));
mirror.start();
let result: unknown;
try {
  const agents = await until("four agents, live", () => {
    const v = mirror.getView();
    const list = Object.values(v.entities.agents);
    return v.connection.state === "live" && list.length === 4 && list;
  }, 15_000);
  const byName = (n: string) => agents.find((a) => a.name === n)!;
  const store = mirror.output;
  let foreign = 0;
  const onChunk = store.onChunk.bind(store);
  store.onChunk = (c) => {
    if (!store.get(c.agentId)) foreign++;
    onChunk(c);
  };
  const select = (a: Agent) => store.ensure(a.id, a.provider);
  // whole-state refetches while the selection moves: none, the stream replays from its start id
  let refetches = 0;
  const listAgents = client.listAgents.bind(client);
  client.listAgents = (...args) => (refetches++, listAgents(...args));
  const names = ["one", "two", "three"];
  select(byName("one"));
  writeFileSync(gate!, "");
  // the selection moves while they stream: one, two, three, one, ... (two loaded at a time)
  for (let i = 0; i < 30; i++) {
    gc();
    select(byName(names[i % 3]!));
    await sleep(40);
  }
  gc();
  foreign = 0;
  select(byName("two"));
  select(byName("three"));
  const done = async (a: Agent) => (await client.output(a.id, { before: Number.MAX_SAFE_INTEGER, limit: 1 }))[0]?.data.endsWith(`${a.name} ${LINES}\n`);
  for (const n of names) await until(`${n} wrote all its lines`, () => done(byName(n)), 30_000);
  const lines: Record<string, string[]> = {};
  for (const n of ["two", "three"]) {
    const buf = store.get(byName(n).id)!;
    await until(`${n} has all its lines`, () => buf.state === "ready" && buf.total === LINES, 10_000).catch(() => undefined);
    const src = buf.source(true);
    lines[n] = [];
    for (let i = src.base; i < src.end; i++) lines[n].push(src.at(i).text);
  }
  // the stream last opened long ago (a stale abort is what a collection loses): four's lines must come live
  for (let i = 0; i < 3; i++) (gc(), await sleep(10));
  foreign = 0;
  const four = select(byName("four"));
  await until("four's history", () => four.state === "ready", 10_000);
  const loadedAt = four.total;
  await until("50 more of four's lines, live", () => four.total >= loadedAt + 50, 10_000).catch(() => undefined);
  lines.four = [];
  const src = four.source(true);
  for (let i = src.base; i < src.end; i++) lines.four.push(src.at(i).text);
  result = { lines, refetches, fourLoadedAt: loadedAt, oneLoaded: store.get(byName("one").id) !== undefined, foreign, states };
} catch (err) {
  result = { error: String(err), states };
}
mirror.stop();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
