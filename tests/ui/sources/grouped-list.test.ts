import { describe, expect, test } from "bun:test";
import { listIndex, NEEDS_GROUP, type Grouping, type ListIndex } from "../../../src/ui/agents/list-index.ts";
import { entitiesReducer, initialEntities, type EntitiesState } from "../../../src/ui/mirror/entities-state.ts";
import { uiReducer, initialUi } from "../../../src/ui/shell/ui-state.ts";
import type { Agent } from "../../../src/protocol/entities.ts";
import { makeAgent } from "../helpers/fake-client.ts";

/** Agents of three sources (0, 1, 2) in one state, and where each is. */
function sources(agents: [number, Agent][], count = 3): { state: EntitiesState; grouping: Grouping } {
  const where = new Map(agents.map(([i, a]) => [a.id, i]));
  const state = entitiesReducer(initialEntities, { type: "snapshot", agents: agents.map(([, a]) => a), conversations: [] });
  return { state, grouping: { list: Array.from({ length: count }), indexOf: (id) => where.get(id) ?? -1 } };
}

/** The lines as shown: `#n` a source's header, `#!` the needing block's, else the agent's name. */
function lines(list: ListIndex): string[] {
  return list.rows(0, list.rowCount).map((r) => (r.kind === "header" ? (r.group === NEEDS_GROUP ? "#!" : `#${r.group}`) : r.agent.name));
}

const asks = { status: "waiting" as const, questions: [{ id: "q1", question: "which?", header: null, options: null, multiSelect: false }] };

describe("the list over several sources", () => {
  test("a header per source, even one with no agent; those needing the person first across all, under their own header", () => {
    const now = Date.now();
    const { state, grouping } = sources([
      [0, makeAgent({ name: "a-old", createdAt: now - 2000 })],
      [0, makeAgent({ name: "a-new", createdAt: now - 1000 })],
      [2, makeAgent({ name: "c-asks", createdAt: now - 5000, ...asks })],
      [0, makeAgent({ name: "a-asks", createdAt: now - 3000, ...asks })],
      [2, makeAgent({ name: "c-done", status: "done", createdAt: now })],
    ]);
    const list = listIndex(null, state, "", grouping);
    expect(lines(list)).toEqual(["#!", "a-asks", "c-asks", "#0", "a-new", "a-old", "#1", "#2", "c-done"]);
    // the keys move through agents only: a header is never selected
    expect([...list.order].map((id) => state.agents[id]!.name)).toEqual(["a-asks", "c-asks", "a-new", "a-old", "c-done"]);
    expect(list.rowOf(list.at(2)!)).toBe(4);
    expect(list.rowOf(list.at(4)!)).toBe(8);
    expect(list.rowCount).toBe(9);
    let ui = uiReducer(initialUi, { type: "move", delta: 1, ids: list, from: list.at(0)! });
    ui = uiReducer(ui, { type: "move", delta: 1, ids: list });
    expect(state.agents[ui.selectedId!]!.name).toBe("a-new");
    ui = uiReducer(ui, { type: "move", delta: 2, ids: list });
    expect(state.agents[ui.selectedId!]!.name).toBe("c-done");
  });

  test("a worker stays under the agent that started it, in that agent's block; no needing block when none needs the person", () => {
    const parent = makeAgent({ name: "boss" });
    const worker = makeAgent({ name: "worker", parentId: parent.id });
    const { state, grouping } = sources(
      [
        [1, parent],
        [1, worker],
        [0, makeAgent({ name: "solo" })],
      ],
      2,
    );
    const list = listIndex(null, state, "", grouping);
    expect(lines(list)).toEqual(["#0", "solo", "#1", "boss", "worker"]);
    expect(list.lasts(worker.id)).toEqual([true]);
  });

  test("an agent no source holds yet (a view a moment older) comes last, under no header of its own, never among those needing the person", () => {
    const stray = makeAgent({ name: "stray" });
    const { state } = sources([[0, makeAgent({ name: "x" })]], 2);
    const withStray = entitiesReducer(state, { type: "events", events: [{ type: "agent:created", agent: stray }] });
    const known = new Map(Object.values(state.agents).map((a) => [a.id, 0]));
    const list = listIndex(null, withStray, "", { list: [0, 1], indexOf: (id) => known.get(id) ?? -1 });
    expect(lines(list)).toEqual(["#0", "x", "#1", "stray"]);
  });

  test("a window of lines starts anywhere, headers included; one source is the list as it always was (no header)", () => {
    const { state, grouping } = sources([
      [0, makeAgent({ name: "x" })],
      [1, makeAgent({ name: "y" })],
    ]);
    const grouped = listIndex(null, state, "", grouping);
    expect(grouped.rows(1, 2).map((r) => (r.kind === "agent" ? r.agent.name : `#${r.group}`))).toEqual(["x", "#1"]);
    const plain = listIndex(null, state, "");
    expect(plain.rowCount).toBe(2);
    expect(plain.rows(0, 5).every((r) => r.kind === "agent")).toBe(true);
    expect(plain.rowOf(plain.at(1)!)).toBe(1);
  });

  test("an update that moves nobody keeps the lines; a new grouping of as many sources too; an agent that starts asking moves to the top", () => {
    const a = makeAgent({ name: "a" });
    const b = makeAgent({ name: "b" });
    const { state, grouping } = sources(
      [
        [0, a],
        [1, b],
      ],
      2,
    );
    const first = listIndex(null, state, "", grouping);
    const costed = entitiesReducer(state, { type: "events", events: [{ type: "agent:updated", agent: { ...b, costUsd: 1, updatedAt: b.updatedAt + 1 } }] });
    const again = listIndex(first, costed, "", { ...grouping });
    expect(again.order).toBe(first.order);
    expect(lines(again)).toEqual(lines(first));
    const asking = entitiesReducer(costed, { type: "events", events: [{ type: "agent:updated", agent: { ...b, ...asks, updatedAt: b.updatedAt + 2 } }] });
    expect(lines(listIndex(again, asking, "", grouping))).toEqual(["#!", "b", "#0", "a", "#1"]);
  });
});
