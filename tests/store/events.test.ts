import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../src/store/index.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a removed agent's events are blanked in place: a replay from 0 goes on, shows none of it, and keeps its workers' events", () => {
  const store = createStore(join(dir, "troupe.db"), { warn: () => {} });
  const agent = (id: string, over: Partial<Agent> = {}) =>
    ({ id, name: id, provider: "generic", status: "done", prompt: "the secret plan", result: "secret result", parentId: null, ...over }) as unknown as Agent;
  store.events.append({ type: "agent:created", agent: agent("ag_lead") });
  store.events.append({ type: "agent:created", agent: agent("ag_kid", { parentId: "ag_lead", prompt: "kid's", result: null }) });
  store.events.append({ type: "agent:updated", agent: agent("ag_lead") });
  store.db.query("INSERT INTO events (type, payload, created_at) VALUES ('agent:updated', 'not json', 0)").run();
  store.events.forgetAgent("ag_lead");
  const rows = store.db.query("SELECT id, type, payload FROM events ORDER BY id").all() as { id: number; type: string; payload: string }[];
  expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  expect(rows.map((r) => r.type)).toEqual(["agent:removed", "agent:created", "agent:removed", "agent:updated"]);
  expect(rows[0]!.payload).toBe('{"type":"agent:removed","agentId":"ag_lead"}');
  expect(rows.some((r) => r.payload.includes("secret"))).toBe(false);
  expect(rows[1]!.payload).toContain('"parentId":"ag_lead"');
  store.close();
});
