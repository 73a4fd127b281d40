import { describe, expect, test } from "bun:test";
import { listIndex, type ListIndex } from "../../../src/ui/agents/list-index.ts";
import { entitiesReducer, hasQuestions, initialEntities, visibleRows, waitingOnPerson, type EntitiesState } from "../../../src/ui/mirror/entities-state.ts";
import { isLive } from "../../../src/protocol/status.ts";
import type { Agent, AgentStatus } from "../../../src/protocol/entities.ts";
import type { DaemonEvent } from "../../../src/protocol/events.ts";
import { makeAgent, makeConversation } from "../helpers/fake-client.ts";

const snapshot = (agents: Agent[]) => entitiesReducer(initialEntities, { type: "snapshot", agents, conversations: [] });
const apply = (s: EntitiesState, ...events: DaemonEvent[]) => entitiesReducer(s, { type: "events", events });

/** The list as `visibleRows` sorts it from scratch: what the index must always read as. */
function expectSameAsFromScratch(index: ListIndex, s: EntitiesState, filter: string): void {
  const rows = visibleRows(s, filter);
  expect([...index.order]).toEqual(rows.map((r) => r.item.id));
  for (const r of rows) expect(index.lasts(r.item.id)).toEqual(r.lasts);
  rows.forEach((r, i) => expect(index.indexOf(r.item.id)).toBe(i));
  expect(index.window(0, rows.length)).toEqual(rows.map((r) => r.item));
  const waiting = waitingOnPerson(s);
  const all = Object.values(s.agents);
  expect([...index.needs].sort()).toEqual(all.filter((a) => hasQuestions(a) || waiting.has(a.id)).map((a) => a.id).sort());
  expect(index.total).toBe(all.length);
  expect(index.running).toBe(all.filter((a) => isLive(a.status)).length);
}

describe("the list kept from one state to the next", () => {
  test("a state that changed nothing it shows gives the same list", () => {
    const s = snapshot([makeAgent(), makeAgent()]);
    const a = listIndex(null, s, "");
    expect(listIndex(a, s, "")).toBe(a);
    // a message between agents changes the state, not the list
    const s2 = { ...s, conversations: { ...s.conversations } };
    expect(listIndex(a, s2, "").order).toBe(a.order);
  });

  test("an update that moves no agent (its cost, its activity) keeps the order and shows the new agent", () => {
    const now = Date.now();
    const agents = Array.from({ length: 50 }, (_, i) => makeAgent({ name: `a${i}`, createdAt: now - i * 1000 }));
    const s = snapshot(agents);
    const a = listIndex(null, s, "");
    // newer than what the snapshot holds (made a few ms after `now`), so the update is taken
    const updated = { ...agents[7]!, costUsd: 1.25, lastActivityAt: now, updatedAt: agents[7]!.updatedAt + 1 };
    const s2 = apply(s, { type: "agent:updated", agent: updated });
    const b = listIndex(a, s2, "");
    expect(b.order).toBe(a.order); // not sorted again
    expect(b.window(7, 1)[0]).toBe(updated);
    expectSameAsFromScratch(b, s2, "");
  });

  test("a change that can move an agent sorts again: its status, a question, a conversation to the person, one added or gone", () => {
    const now = Date.now();
    const agents = Array.from({ length: 6 }, (_, i) => makeAgent({ name: `a${i}`, createdAt: now - i * 1000 }));
    let s = snapshot(agents);
    let index = listIndex(null, s, "");
    const steps: DaemonEvent[] = [
      { type: "agent:updated", agent: { ...agents[3]!, status: "done", updatedAt: agents[3]!.updatedAt + 1 } },
      { type: "agent:updated", agent: { ...agents[4]!, status: "waiting", questions: [{ question: "which?" }], updatedAt: agents[4]!.updatedAt + 1 } as Agent },
      { type: "conversation:created", conversation: makeConversation({ fromId: agents[5]!.id, toId: "user" }) },
      { type: "agent:created", agent: makeAgent({ name: "new", createdAt: now + 5 }) },
      { type: "agent:removed", agentId: agents[0]!.id },
    ];
    for (const ev of steps) {
      const next = apply(s, ev);
      const moved = listIndex(index, next, "");
      expect(moved.order).not.toBe(index.order);
      expectSameAsFromScratch(moved, next, "");
      [s, index] = [next, moved];
    }
  });

  test("whatever happens, it reads as the list sorted from scratch (random events, filters, workers)", () => {
    let seed = 7;
    const r = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const statuses: AgentStatus[] = ["running", "done", "failed", "waiting", "stopped", "starting"];
    const filters = ["", "", "", "done", "a1", "is:running"];
    const now = Date.now();
    let agents = Array.from({ length: 30 }, (_, i) => makeAgent({ name: `a${i}`, createdAt: now - i * 997 }));
    let s = snapshot(agents);
    let index = listIndex(null, s, "");
    let filter = "";
    for (let step = 0; step < 300; step++) {
      const pick = agents[Math.floor(r() * agents.length)]!;
      const roll = r();
      let ev: DaemonEvent;
      if (roll < 0.4) ev = { type: "agent:updated", agent: { ...pick, costUsd: r(), updatedAt: now + step } };
      else if (roll < 0.6) ev = { type: "agent:updated", agent: { ...pick, status: statuses[Math.floor(r() * statuses.length)]!, updatedAt: now + step } };
      else if (roll < 0.7) ev = { type: "agent:updated", agent: { ...pick, parentId: agents[Math.floor(r() * agents.length)]!.id, updatedAt: now + step } };
      else if (roll < 0.8) ev = { type: "agent:created", agent: makeAgent({ name: `n${step}`, createdAt: now + step, parentId: r() < 0.5 ? pick.id : null }) };
      else if (roll < 0.87) ev = { type: "agent:removed", agentId: pick.id };
      else ev = { type: "conversation:created", conversation: makeConversation({ fromId: pick.id, toId: "user" }) };
      s = apply(s, ev);
      agents = Object.values(s.agents);
      if (!agents.length) break;
      if (r() < 0.1) filter = filters[Math.floor(r() * filters.length)]!;
      index = listIndex(index, s, filter);
      expectSameAsFromScratch(index, s, filter);
    }
  });
});
