import { afterEach, expect, test } from "bun:test";
import { DeliveryFollower } from "../../src/messages/delivery.ts";
import { MessageService } from "../../src/messages/service.ts";
import { RecordingResumer, Rows } from "../support/rows.ts";

/** The messages' steps of the end-of-run sequence, on a real store; agents are rows, resumes are recorded. */
let rows: Rows;
afterEach(() => rows.close());

function setup() {
  rows = new Rows();
  const messages = new MessageService(rows.store, rows.bus, () => "/bin/troupe");
  const agents = new RecordingResumer(rows);
  const delivery = new DeliveryFollower({ store: rows.store, bus: rows.bus, log: rows.log, messages, agents });
  return { messages, agents, delivery };
}

const person = { kind: "user" } as const;
const aTurn = () => new Promise((r) => setImmediate(r));

test("a delivery to a session that never started is queued again at the run's end, and the done agent is woken for it a turn later", async () => {
  const { messages, agents, delivery } = setup();
  delivery.start();
  rows.agent("otter", { status: "running", session: 1 });
  const [m] = messages.send(person, { to: "otter", text: "rebase first" }, () => true);
  // session 2's launch claimed it, then failed before a process ran
  rows.store.messages.claimForSession("ag_otter", 2, 10_000);
  expect(rows.store.messages.get(m!.seq)?.status).toBe("delivered");

  rows.store.agents.update("ag_otter", { status: "done", session: 2 });
  delivery.runEnded({ agent: rows.view("otter"), session: 2, exitCode: 0 });
  expect(rows.store.messages.get(m!.seq)?.status).toBe("queued");
  expect(agents.resumed).toEqual([]);
  await aTurn();
  expect(agents.resumed.map((r) => r.ref)).toEqual(["ag_otter"]);
});

test("a later session's delivery stays (it may be launching); a run that ends failed is not woken", async () => {
  const { messages, agents, delivery } = setup();
  delivery.start();
  rows.agent("heron", { status: "running", session: 1 });
  const [m] = messages.send(person, { to: "heron", text: "hi" }, () => true);
  rows.store.messages.claimForSession("ag_heron", 3, 10_000);
  rows.store.agents.update("ag_heron", { status: "failed", session: 2 });
  delivery.runEnded({ agent: rows.view("heron"), session: 2, exitCode: 1 });
  await aTurn();
  expect(rows.store.messages.get(m!.seq)?.status).toBe("delivered");
  expect(agents.resumed).toEqual([]);
});

test("a detach back to done wakes the agent for messages queued meanwhile; not before start or after shutdown", async () => {
  const { messages, agents, delivery } = setup();
  rows.agent("lynx", { status: "attached", session: 1 });
  messages.send(person, { to: "lynx", text: "look at this" }, () => true);
  rows.store.agents.update("ag_lynx", { status: "done" });
  delivery.detached({ agent: rows.view("lynx"), session: 1 });
  await aTurn();
  expect(agents.resumed).toEqual([]);

  delivery.start();
  delivery.detached({ agent: rows.view("lynx"), session: 1 });
  await aTurn();
  expect(agents.resumed.map((r) => r.ref)).toEqual(["ag_lynx"]);

  delivery.shutdown();
  rows.store.agents.update("ag_lynx", { status: "done" });
  messages.send(person, { to: "lynx", text: "again" }, () => true);
  delivery.runEnded({ agent: rows.view("lynx"), session: 2, exitCode: 0 });
  await aTurn();
  expect(agents.resumed).toHaveLength(1);
});
