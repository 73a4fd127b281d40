import { afterEach, expect, test } from "bun:test";
import { PermissionService, awaitsPermission } from "../../src/permissions/service.ts";
import { permissionSeq } from "../../src/store/permissions.ts";
import { Rows } from "../support/rows.ts";

/** The permissions' step of the end-of-run sequence, on a real store; agents are rows. */
let rows: Rows;
afterEach(() => rows.close());

function setup() {
  rows = new Rows();
  return service();
}

function service() {
  const agents = { rulesOf: () => ({ allowedTools: [], deniedTools: [] }), troupeCommand: () => "/bin/troupe" };
  return new PermissionService({ store: rows.store, bus: rows.bus, log: rows.log, agents });
}

function request(agent: string, session: number, toolUseId: string) {
  const { record } = rows.store.permissions.insert({ agentId: `ag_${agent}`, agentName: agent, session, toolUseId, kind: "tool", toolName: "Bash", input: { command: "ls" } }, null);
  return permissionSeq(record.id)!;
}

test("a run's end cancels the pending requests of its session; another live agent's stay", () => {
  const permissions = setup();
  permissions.start();
  rows.agent("otter", { status: "running", session: 1 });
  rows.agent("heron", { status: "running", session: 1 });
  const mine = request("otter", 1, "tu_1");
  const theirs = request("heron", 1, "tu_2");
  expect(awaitsPermission(rows.store, "ag_otter")).toBe(true);

  rows.store.agents.update("ag_otter", { status: "done" });
  permissions.runEnded({ agent: rows.view("otter"), session: 1, exitCode: 0 });
  expect(rows.store.permissions.get(mine)).toMatchObject({ status: "cancelled", decidedBy: "ended" });
  expect(rows.store.permissions.get(theirs)?.status).toBe("pending");
  expect(awaitsPermission(rows.store, "ag_otter")).toBe(false);
  expect(awaitsPermission(rows.store, "ag_heron")).toBe(true);
});

test("before its start and after its shutdown the step cancels nothing", () => {
  const permissions = setup();
  rows.agent("lynx", { status: "running", session: 1 });
  const r = request("lynx", 1, "tu_3");
  permissions.start();
  permissions.shutdown();
  rows.store.agents.update("ag_lynx", { status: "done" });
  permissions.runEnded({ agent: rows.view("lynx"), session: 1, exitCode: 0 });
  expect(rows.store.permissions.get(r)?.status).toBe("pending");
  // the next daemon's start cancels it (the session ended while none ran)
  service().start();
  expect(rows.store.permissions.get(r)?.status).toBe("cancelled");
});
