import { describe, expect, test } from "bun:test";
import {
  entitiesReducer,
  initialEntities,
  messagesFrom,
  needsPerson,
  orphanConversations,
  orphanMessages,
  parseFilter,
  visibleAgents,
  visibleRows,
} from "../../../src/ui/mirror/entities-state.ts";
import { attentionItems } from "../../../src/ui/mirror/attention.ts";
import { makeAgent, makeConversation } from "../helpers/fake-client.ts";
import type { Message } from "../../../src/protocol/message.ts";

let n = 0;
const message = (over: Partial<Message> = {}): Message => {
  const seq = ++n;
  return { id: `msg_${seq}`, seq, fromId: "a1", fromName: "agent-1", toId: "user", toName: "user", text: `note ${seq}`, status: "queued", createdAt: seq, deliveredAt: null, ...over };
};

describe("entitiesReducer", () => {
  test("a snapshot loads agents and open conversations only", () => {
    const a = makeAgent();
    const open = makeConversation({ fromId: a.id });
    const done = makeConversation({ status: "answered" });
    const s = entitiesReducer(initialEntities, { type: "snapshot", agents: [a], conversations: [open, done] });
    expect(s.loaded).toBe(true);
    expect(Object.keys(s.agents)).toEqual([a.id]);
    expect(Object.keys(s.conversations)).toEqual([open.id]);
  });

  test("an older version never replaces a newer one, from events or snapshots", () => {
    const a = makeAgent({ status: "running", updatedAt: 100 });
    let s = entitiesReducer(initialEntities, { type: "snapshot", agents: [a], conversations: [] });
    s = entitiesReducer(s, { type: "events", events: [{ type: "agent:updated", agent: { ...a, status: "done", updatedAt: 200 } }] });
    s = entitiesReducer(s, { type: "events", events: [{ type: "agent:updated", agent: { ...a, status: "running", updatedAt: 150 } }] });
    expect(s.agents[a.id]!.status).toBe("done");
    s = entitiesReducer(s, { type: "snapshot", agents: [{ ...a, updatedAt: 120 }], conversations: [] });
    expect(s.agents[a.id]!.status).toBe("done");
  });

  test("created, removed, and conversation settled", () => {
    const a = makeAgent();
    const c = makeConversation({ fromId: a.id });
    let s = entitiesReducer(initialEntities, {
      type: "events",
      events: [
        { type: "agent:created", agent: a },
        { type: "conversation:created", conversation: c },
      ],
    });
    expect(needsPerson(s.agents[a.id]!, s)).toBe(true);
    s = entitiesReducer(s, { type: "events", events: [{ type: "conversation:updated", conversation: { ...c, status: "answered", answer: "yes" } }] });
    expect(s.conversations[c.id]).toBeUndefined();
    expect(needsPerson(s.agents[a.id]!, s)).toBe(false);
    s = entitiesReducer(s, { type: "events", events: [{ type: "agent:removed", agentId: a.id }] });
    expect(s.agents[a.id]).toBeUndefined();
  });

  test("a batch with nothing new keeps the same state object (no re-render)", () => {
    const a = makeAgent();
    const s = entitiesReducer(initialEntities, { type: "snapshot", agents: [a], conversations: [] });
    expect(entitiesReducer(s, { type: "events", events: [{ type: "agent:updated", agent: { ...a, updatedAt: a.updatedAt - 1 } }] })).toBe(s);
    expect(entitiesReducer(s, { type: "events", events: [{ type: "resync", reason: "slow" }] })).toBe(s);
  });
});

describe("visibleAgents", () => {
  const now = Date.now();
  const run = makeAgent({ name: "runner", status: "running", createdAt: now - 10 });
  const done = makeAgent({ name: "finisher", status: "done", createdAt: now - 5, prompt: "write the docs" });
  const wait = makeAgent({ name: "asker", status: "waiting", questions: [{ id: "q", question: "?" }], createdAt: now - 20 });
  const talker = makeAgent({ name: "talker", status: "running", createdAt: now - 30 });
  const state = entitiesReducer(initialEntities, {
    type: "snapshot",
    agents: [run, done, wait, talker],
    conversations: [makeConversation({ fromId: talker.id, fromName: "talker" })],
  });

  test("those needing the person come first", () => {
    const names = visibleAgents(state, "").map((a) => a.name);
    expect(names.slice(0, 2).sort()).toEqual(["asker", "talker"]);
    expect(names.slice(2)).toEqual(["runner", "finisher"]);
  });

  test("filters by status word and by text", () => {
    expect(visibleAgents(state, "done").map((a) => a.name)).toEqual(["finisher"]);
    expect(visibleAgents(state, "is:running").map((a) => a.name).sort()).toEqual(["runner", "talker"]);
    expect(visibleAgents(state, "docs").map((a) => a.name)).toEqual(["finisher"]);
    expect(visibleAgents(state, "running runner").map((a) => a.name)).toEqual(["runner"]);
    expect(parseFilter("Waiting foo")).toEqual({ statuses: ["waiting"], words: ["foo"] });
  });

  test("workers under the agent that started them; one needing the person at the top, its parent's filtered out at the top level", () => {
    const lead = makeAgent({ name: "lead", status: "running", createdAt: now - 100 });
    const w1 = makeAgent({ name: "w1", status: "done", parentId: lead.id, createdAt: now - 90 });
    const w2 = makeAgent({ name: "w2", status: "running", parentId: lead.id, createdAt: now - 80 });
    const stuck = makeAgent({ name: "stuck", status: "waiting", questions: [{ id: "q", question: "?" }], parentId: lead.id, createdAt: now - 70 });
    const s = entitiesReducer(initialEntities, { type: "snapshot", agents: [lead, w1, w2, stuck, run], conversations: [] });
    const rows = visibleRows(s, "").map((r) => `${r.depth}:${r.item.name}`);
    expect(rows).toEqual(["0:stuck", "0:runner", "0:lead", "1:w2", "1:w1"]);
    expect(visibleRows(s, "done").map((r) => `${r.depth}:${r.item.name}`)).toEqual(["0:w1"]);
  });

  test("attention keys name what waits for the person", () => {
    const keys = attentionItems(state);
    expect(keys.has(`agent:${wait.id}:1`)).toBe(true);
    expect([...keys.keys()].filter((k) => k.startsWith("conversation:"))).toHaveLength(1);
  });

  test("a conversation from no listed agent is an orphan", () => {
    const s = entitiesReducer(state, { type: "events", events: [{ type: "conversation:created", conversation: makeConversation({ fromId: "script" }) }] });
    expect(orphanConversations(s)).toHaveLength(1);
  });
});

describe("messages to the person", () => {
  const sender = makeAgent({ status: "done" });
  const other = makeAgent({ status: "running", createdAt: sender.createdAt + 1 });
  const base = entitiesReducer(initialEntities, { type: "snapshot", agents: [sender, other], conversations: [] });
  const ev = (type: "message:created" | "message:updated", m: Message) => ({ type, message: m });

  test("an unread message marks its sender: first in the list, an attention key; read, it is gone", () => {
    const m = message({ fromId: sender.id, fromName: sender.name });
    const s = entitiesReducer(base, { type: "events", events: [ev("message:created", m)] });
    expect(needsPerson(s.agents[sender.id]!, s)).toBe(true);
    expect(visibleAgents(s, "").map((a) => a.id)).toEqual([sender.id, other.id]);
    expect(attentionItems(s).has(`message:${m.id}`)).toBe(true);
    expect(messagesFrom(s, sender.id)).toEqual([m]);
    const read = entitiesReducer(s, { type: "events", events: [ev("message:updated", { ...m, status: "read" })] });
    expect(needsPerson(read.agents[sender.id]!, read)).toBe(false);
    expect(attentionItems(read).size).toBe(0);
  });

  test("newest by status: a late `delivered` never brings back a read message; messages between agents are ignored", () => {
    const m = message({ fromId: sender.id });
    const s = entitiesReducer(base, {
      type: "events",
      events: [ev("message:created", m), ev("message:updated", { ...m, status: "read" }), ev("message:updated", { ...m, status: "delivered" })],
    });
    expect(s.messages[m.id]?.status).toBe("read");
    expect(messagesFrom(s, sender.id)).toEqual([]);
    const toAgent = entitiesReducer(base, { type: "events", events: [ev("message:created", message({ toId: other.id, toName: other.name }))] });
    expect(toAgent).toBe(base);
  });

  test("a snapshot holds the unread; one held but missing from it was read meanwhile; absent, the held stay", () => {
    const a = message({ fromId: sender.id });
    const b = message({ fromId: "gone", fromName: "removed" });
    const s = entitiesReducer(base, { type: "snapshot", agents: [sender, other], conversations: [], messages: [a, b] });
    expect(messagesFrom(s, sender.id)).toEqual([a]);
    expect(orphanMessages(s)).toEqual([b]);
    const again = entitiesReducer(s, { type: "snapshot", agents: [sender, other], conversations: [], messages: [b] });
    expect(messagesFrom(again, sender.id)).toEqual([]);
    expect(orphanMessages(again)).toEqual([b]);
    const noRoute = entitiesReducer(s, { type: "snapshot", agents: [sender, other], conversations: [] });
    expect(noRoute.messages).toBe(s.messages);
  });
});
