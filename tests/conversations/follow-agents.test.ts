import { afterEach, expect, test } from "bun:test";
import { AgentFollower } from "../../src/conversations/follow-agents.ts";
import { ConversationService } from "../../src/conversations/service.ts";
import { RecordingResumer, Rows } from "../support/rows.ts";

/** The conversations' steps of the end-of-run sequence, on a real store; agents are rows, resumes are recorded. */
let rows: Rows;
afterEach(() => rows.close());

function setup() {
  rows = new Rows();
  const conversations = new ConversationService(rows.store, rows.bus);
  const agents = new RecordingResumer(rows);
  const follower = new AgentFollower({ store: rows.store, bus: rows.bus, log: rows.log, conversations, agents });
  return { conversations, agents, follower };
}

const person = { kind: "user" } as const;

test("a run that ends done with a question waiting is resumed for it, and the question is delivered", () => {
  const { conversations, agents, follower } = setup();
  follower.start();
  rows.agent("otter", { status: "running", session: 1 });
  const conv = conversations.ask(person, { to: "otter", question: "which port?" });
  expect(agents.resumed).toEqual([]); // running: it is not woken

  rows.store.agents.update("ag_otter", { status: "done" });
  follower.runEnded({ agent: rows.view("otter"), session: 1, exitCode: 0 });
  expect(agents.resumed).toHaveLength(1);
  expect(agents.resumed[0]!.prompt).toContain("which port?");
  expect(rows.store.conversations.get(conv.id)?.status).toBe("delivered");
});

test("what the session claimed with listen and left unanswered is pending again; a failed run is woken for nothing", () => {
  const { conversations, agents, follower } = setup();
  follower.start();
  rows.agent("heron", { status: "running", session: 2 });
  const conv = conversations.ask(person, { to: "heron", question: "status?" });
  rows.store.conversations.claimNext("ag_heron", 2);
  expect(rows.store.conversations.get(conv.id)?.status).toBe("delivered");

  rows.store.agents.update("ag_heron", { status: "failed" });
  follower.runEnded({ agent: rows.view("heron"), session: 2, exitCode: 1 });
  expect(rows.store.conversations.get(conv.id)?.status).toBe("pending");
  expect(agents.resumed).toEqual([]);
});

test("a detach back to done wakes the agent for a question asked meanwhile", () => {
  const { conversations, agents, follower } = setup();
  follower.start();
  rows.agent("lynx", { status: "attached", session: 3 });
  conversations.ask(person, { to: "lynx", question: "done yet?" });
  rows.store.agents.update("ag_lynx", { status: "done" });
  follower.detached({ agent: rows.view("lynx"), session: 3 });
  expect(agents.resumed.map((r) => r.ref)).toEqual(["ag_lynx"]);
});

test("before its start and after its shutdown the step does nothing", () => {
  const { conversations, agents, follower } = setup();
  rows.agent("mole", { status: "running", session: 1 });
  conversations.ask(person, { to: "mole", question: "?" });
  rows.store.agents.update("ag_mole", { status: "done" });
  follower.runEnded({ agent: rows.view("mole"), session: 1, exitCode: 0 });
  follower.start();
  follower.shutdown();
  follower.runEnded({ agent: rows.view("mole"), session: 1, exitCode: 0 });
  follower.detached({ agent: rows.view("mole"), session: 1 });
  expect(agents.resumed).toEqual([]);
});
