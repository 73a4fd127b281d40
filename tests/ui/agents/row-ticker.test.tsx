import { afterEach, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { Box, Text, render, type Instance } from "ink";
import { AgentList } from "../../../src/ui/agents/AgentList.tsx";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { renderApp, waitFor, type Screen } from "../helpers/render.tsx";
import type { Agent } from "../../../src/protocol/entities.ts";
import { listIndex } from "../../../src/ui/agents/list-index.ts";
import { entitiesReducer, initialEntities } from "../../../src/ui/mirror/entities-state.ts";

let screen: Screen | null = null;
let ink: Instance | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
  ink?.unmount();
  ink = null;
});

const secondsOf = (frame: string, name: string) => Number(new RegExp(`${name}\\s+running\\s+(?:[a-z]+\\s+)?(\\d+)s`).exec(frame)?.[1] ?? NaN);

test("a young agent's elapsed time moves on by itself (rendered where there is no terminal to draw on)", async () => {
  screen = await renderApp(new FakeClient([makeAgent({ name: "young", createdAt: Date.now() - 1_000 })]));
  const first = secondsOf(await screen.waitFor(/young\s+running/), "young");
  await waitFor(() => secondsOf(screen!.frame(), "young") > first, () => `the time to move on from ${first}s:\n${screen!.frame()}`);
});

/** A terminal that keeps each write: full frames (Ink's debug mode) and anything written between them. */
class Terminal extends EventEmitter {
  isTTY = true;
  columns = 80;
  rows = 6;
  writes: string[] = [];
  write = (s: string) => {
    this.writes.push(s);
    return true;
  };
}

function list(agents: Agent[], extra: number) {
  return (
    <Box flexDirection="column" width={80} height={6}>
      <Text>{`header ${extra}`}</Text>
      <AgentList list={listIndex(null, entitiesReducer(initialEntities, { type: "snapshot", agents, conversations: [] }), "")} selectedId={agents[0]!.id} top={0} width={80} height={5} focused filter="" loaded />
    </Box>
  );
}

test("on a terminal the tick repaints the cells in place, without a frame, where Ink draws them", async () => {
  const now = Date.now();
  const agents = [makeAgent({ name: "one", createdAt: now - 1_200 }), makeAgent({ name: "two", createdAt: now - 30_000 })];
  const term = new Terminal();
  const stdin = Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
  ink = render(list(agents, 0), { stdout: term as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true, patchConsole: false, exitOnCtrlC: false });
  const frames = () => term.writes.filter((w) => !w.startsWith("\x1b7"));
  const before = secondsOf(frames().at(-1)!, "one");
  await waitFor(() => term.writes.some((w) => w.startsWith("\x1b7")), () => `a repaint; writes:\n${term.writes.join("\n---\n")}`);
  const paint = term.writes.find((w) => w.startsWith("\x1b7"))!;
  // no frame drew the new time first: the repaint did
  expect(frames().every((f) => secondsOf(f, "one") === before)).toBe(true);
  const cells = [...paint.matchAll(/\x1b\[(\d+);(\d+)H([^\x1b]*)/g)].map((m) => ({ row: Number(m[1]) - 1, col: Number(m[2]) - 1, text: m[3]! }));
  expect(cells.length).toBeGreaterThan(0);
  // a frame drawn afterwards, from Ink's own tree, has the repainted text at the same places
  ink.rerender(list(agents, 1));
  const lines = frames().at(-1)!.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  for (const c of cells) expect(lines[c.row]!.slice(c.col, c.col + c.text.length)).toBe(c.text);
  expect(secondsOf(lines.join("\n"), "one")).toBeGreaterThan(before);
});

test("while the terminal is handed over (an agent taken over, an editor) no tick draws on it; the first after does", async () => {
  const { whileHandedOver } = await import("../../../src/ui/kit/terminal/hand-over.ts");
  const agents = [makeAgent({ name: "one", createdAt: Date.now() - 1_200 })];
  const term = new Terminal();
  const stdin = Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
  const repaints = () => term.writes.filter((w) => w.startsWith("\x1b7")).length;
  await whileHandedOver(async () => {
    ink = render(list(agents, 0), { stdout: term as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true, patchConsole: false, exitOnCtrlC: false });
    await new Promise((r) => setTimeout(r, 2_300)); // two seconds tick by
    expect(repaints()).toBe(0);
  });
  await waitFor(() => repaints() > 0, () => "a repaint once the terminal is back");
});
