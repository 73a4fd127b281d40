import { expect, test } from "bun:test";
import { createStore } from "../../src/store/index.ts";

test("port leases (migration 28): taken in one transaction by slot, never twice, read on the agent, gone with it", () => {
  const store = createStore(":memory:", { warn: () => undefined });
  store.agents.insert({
    id: "ag_1", name: "calm-yak", provider: "generic", prompt: null, command: "true", model: null, cwd: "/",
    worktree: "/w", branch: "troupe/calm-yak", baseRef: "main", permissions: "skip", tokenHash: "h", signalFile: "/s",
  });
  expect(store.agents.get("ag_1")!.ports).toEqual([]);
  expect(store.ports.take("ag_1", { from: 3000, to: 3009 }, 2, new Set([3000]))).toEqual([3001, 3002]);
  expect(store.agents.get("ag_1")!.ports).toEqual([3001, 3002]);
  expect(store.agents.list()[0]!.ports).toEqual([3001, 3002]);
  // the key holds it even against a writer that skipped the check
  expect(() => store.db.query("INSERT INTO port_leases (port, agent_id, slot, leased_at) VALUES (3001, 'ag_2', 1, 0)").run()).toThrow();
  // too few left: nothing taken
  expect(store.ports.take("ag_2", { from: 3000, to: 3002 }, 2, new Set())).toBeNull();
  expect(store.ports.of("ag_2")).toEqual([]);
  expect(store.ports.dropOrphans()).toBe(0);
  store.agents.delete("ag_1");
  expect(store.ports.heldIn({ from: 3000, to: 3009 })).toBe(0);
  store.close();
});
