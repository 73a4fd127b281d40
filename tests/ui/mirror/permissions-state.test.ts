import { describe, expect, test } from "bun:test";
import type { PermissionRequest } from "../../../src/protocol/permission.ts";
import { entitiesReducer, initialEntities, visibleAgents } from "../../../src/ui/mirror/entities-state.ts";
import { attentionItems } from "../../../src/ui/mirror/attention.ts";
import { permissionsOf } from "../../../src/ui/mirror/permissions-state.ts";
import { makeAgent } from "../helpers/fake-client.ts";

const request = (id: string, agentId: string, over: Partial<PermissionRequest> = {}): PermissionRequest => ({
  id,
  agentId,
  agentName: agentId,
  kind: "tool",
  toolName: "Bash",
  input: { command: "ls" },
  status: "pending",
  decidedBy: null,
  rule: null,
  reason: null,
  updatedInput: null,
  createdAt: Number(id.slice(5)),
  decidedAt: null,
  ...over,
});

describe("permission requests in the dashboard's state", () => {
  const a = makeAgent({ name: "asker", createdAt: 1 });
  const b = makeAgent({ name: "newer", createdAt: 2 });
  const base = entitiesReducer(initialEntities, { type: "snapshot", agents: [a, b], conversations: [] });

  test("a pending request puts its agent first and calls for the person; its decision takes it away", () => {
    const s = entitiesReducer(base, { type: "events", events: [{ type: "permission:created", request: request("perm_1", a.id) }] });
    expect(visibleAgents(s, "").map((x) => x.name)).toEqual(["asker", "newer"]);
    expect(attentionItems(s).get("permission:perm_1")).toEqual({ name: a.id, reason: "permission", text: "Bash $ ls" });
    const done = entitiesReducer(s, { type: "events", events: [{ type: "permission:updated", request: request("perm_1", a.id, { status: "allowed", decidedBy: "person" }) }] });
    expect(permissionsOf(done.permissions, a.id)).toEqual([]);
    expect(visibleAgents(done, "").map((x) => x.name)).toEqual(["newer", "asker"]);
    expect(done.permissions.settled.perm_1).toEqual({ status: "allowed", decidedBy: "person" });
  });

  test("a snapshot fetched before a decision (and answered after its event) does not bring the request back", () => {
    const pending = request("perm_2", a.id);
    const s = entitiesReducer(base, { type: "events", events: [{ type: "permission:updated", request: { ...pending, status: "denied", decidedBy: "person" } }] });
    const stale = entitiesReducer(s, { type: "snapshot", agents: [a, b], conversations: [], permissions: [pending] });
    expect(permissionsOf(stale.permissions, a.id)).toEqual([]);
  });

  test("the snapshot lists every pending request: one held but missing was settled meanwhile; no permissions fetched keeps those held", () => {
    const s = entitiesReducer(base, { type: "events", events: [{ type: "permission:created", request: request("perm_3", a.id) }, { type: "permission:created", request: request("perm_4", a.id) }] });
    expect(permissionsOf(s.permissions, a.id).map((r) => r.id)).toEqual(["perm_3", "perm_4"]);
    const old = entitiesReducer(s, { type: "snapshot", agents: [a, b], conversations: [] });
    expect(old.permissions).toBe(s.permissions);
    const next = entitiesReducer(s, { type: "snapshot", agents: [a, b], conversations: [], permissions: [request("perm_4", a.id)] });
    expect(permissionsOf(next.permissions, a.id).map((r) => r.id)).toEqual(["perm_4"]);
    expect(next.permissions.settled.perm_3).toEqual({ status: null, decidedBy: null });
  });

  test("a batch with nothing new keeps the state itself", () => {
    const r = request("perm_5", a.id);
    const s = entitiesReducer(base, { type: "events", events: [{ type: "permission:created", request: r }] });
    expect(entitiesReducer(s, { type: "events", events: [{ type: "permission:created", request: r }] })).toBe(s);
  });
});
