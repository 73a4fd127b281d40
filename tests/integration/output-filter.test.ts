/**
 * The dashboard's mirror asks the daemon only for the output of the agents whose output it has
 * loaded (the events endpoint's `output` filter), and opens its stream again when that set
 * changes. Here, on a real daemon, three agents stream numbered lines while the selection moves
 * between them: every loaded agent ends with every line once, in order, the mirror never shows
 * the daemon as down, and the output of an agent not loaded stops coming.
 */
import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { TroupeClient } from "../../src/client/client.ts";
import { DaemonMirror } from "../../src/ui/mirror/daemon-mirror.ts";
import { parserFor } from "../../src/output/render.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox | undefined;
let mirror: DaemonMirror | undefined;
afterEach(async () => {
  mirror?.stop();
  await sb?.close();
  sb = mirror = undefined;
});

const LINES = 1500;

test("switching the selected agent while three stream: no line lost, none doubled, no 'down', and others' output no longer sent", async () => {
  sb = new Sandbox();
  const gate = `${sb.dir}/go`;
  const names = ["one", "two", "three"];
  for (const name of names) {
    const cmd = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=1; while [ $i -le ${LINES} ]; do echo "${name} $i"; i=$((i+1)); [ $((i % 10)) -eq 0 ] && sleep 0.01; done; sleep 60`;
    await sb.json(["spawn", "--no-worktree", "--name", name, "--command", cmd, "--json"]);
  }
  const client = new TroupeClient({ socket: sb.socket });
  mirror = new DaemonMirror(client, parserFor, { output: { keep: 1 } });
  const states: string[] = [];
  mirror.subscribe(() => states.push(mirror!.getView().connection.state));
  mirror.start();
  const agents = await waitFor("three agents, live", () => {
    const v = mirror!.getView();
    const list = Object.values(v.entities.agents);
    return v.connection.state === "live" && list.length === 3 && list;
  });
  const byName = (n: string) => agents.find((a) => a.name === n)!;
  const store = mirror.output;
  // chunks handed to the store of an agent whose output is not loaded at that moment
  let foreign = 0;
  const onChunk = store.onChunk.bind(store);
  store.onChunk = (c) => {
    if (!store.get(c.agentId)) foreign++;
    onChunk(c);
  };
  const select = (a: Agent) => store.ensure(a.id, a.provider);
  select(byName("one"));
  await Bun.write(gate, "");
  // the selection moves while they stream: one, two, three, one, ... (two loaded at a time)
  for (let i = 0; i < 30; i++) {
    select(byName(names[i % 3]!));
    await Bun.sleep(40);
  }
  foreign = 0;
  select(byName("two"));
  select(byName("three"));
  const done = async (a: Agent) => (await client.output(a.id, { before: Number.MAX_SAFE_INTEGER, limit: 1 }))[0]?.data.endsWith(`${a.name} ${LINES}\n`);
  for (const n of names) await waitFor(`${n} wrote all its lines`, () => done(byName(n)), 30_000);
  for (const n of ["two", "three"]) {
    const buf = store.get(byName(n).id)!;
    await waitFor(`${n} has all its lines`, () => buf.state === "ready" && buf.total === LINES, 10_000).catch(() => undefined);
    const src = buf.source(true);
    const lines: string[] = [];
    for (let i = src.base; i < src.end; i++) lines.push(src.at(i).text);
    expect(lines).toEqual(Array.from({ length: LINES }, (_, i) => `${n} ${i + 1}`));
  }
  expect(store.get(byName("one").id)).toBeUndefined();
  // "one" streamed on after it was let go: the daemon no longer sent its output
  expect(foreign).toBe(0);
  expect(states).not.toContain("down");
}, 60_000);
