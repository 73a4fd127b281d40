import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { createStore } from "../../src/store/index.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { EndOfRun, type EndOfRunParts } from "../../src/services/end-of-run.ts";

/** The sequence over recording parts and a real bus: the order it runs them in, and what a failing step does. */
const dir = mkdtempSync("/tmp/tr-end-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(failing: string | null = null) {
  const logPath = join(dir, `${Math.random().toString(36).slice(2)}.log`);
  const log = new Logger(logPath);
  const store = createStore(join(dir, `${Math.random().toString(36).slice(2)}.db`), log);
  const bus = new EventBus(store.events, log);
  const ran: string[] = [];
  bus.subscribe((p) => ran.push(`bus ${p.event.type}`));
  const step = (name: string) => () => {
    ran.push(name);
    if (name === failing) throw new Error(`${name} broke`);
  };
  const parts: EndOfRunParts = {
    modes: { runEnded: step("modes") },
    conversations: { runEnded: step("conversations"), detached: step("conversations detached"), gone: step("conversations gone") },
    messages: { runEnded: step("messages"), detached: step("messages detached"), removed: step("messages removed") },
    permissions: { runEnded: step("permissions"), sessionOver: step("permissions over") },
    uncommitted: { runEnded: step("uncommitted") },
    reaper: { runEnded: step("reaper") },
    dispatch: { runEnded: step("dispatch") },
    bus,
  };
  let read = 0;
  const ends = new EndOfRun(log, () => (read++, parts));
  return { ends, ran, logPath, store, reads: () => read };
}

const agent = { id: "ag_1", name: "otter", status: "done" } as Agent;

test("a run's end runs its steps in the declared order, the agent:ended announcement last", () => {
  const { ends, ran, store } = setup();
  ends.ended({ agent, session: 2, exitCode: 0 });
  expect(ran).toEqual(["modes", "conversations", "messages", "permissions", "uncommitted", "reaper", "dispatch", "bus agent:ended"]);
  store.close();
});

test("a detach announces first (the notifier marks it before the agent:updated that follows), then wakes", () => {
  const { ends, ran, store } = setup();
  ends.detached({ agent, session: 3 });
  expect(ran).toEqual(["bus agent:detached", "conversations detached", "messages detached"]);
  store.close();
});

test("a stop, a removal and a session to be retried run their own declared steps, in order", () => {
  const { ends, ran, store } = setup();
  ends.stopped({ ...agent, status: "stopped" });
  expect(ran.splice(0)).toEqual(["conversations gone", "permissions over"]);
  ends.removed(agent.id);
  expect(ran.splice(0)).toEqual(["conversations gone", "messages removed", "bus agent:removed"]);
  ends.retrying({ agent: { ...agent, status: "running" }, session: 2, exitCode: 1 });
  expect(ran.splice(0)).toEqual(["permissions over"]);
  store.close();
});

test("a failing step is logged and the later steps still run", () => {
  const { ends, ran, logPath, store } = setup("messages");
  ends.ended({ agent, session: 2, exitCode: 0 });
  expect(ran).toEqual(["modes", "conversations", "messages", "permissions", "uncommitted", "reaper", "dispatch", "bus agent:ended"]);
  expect(readFileSync(logPath, "utf8")).toContain("error after otter's run ended (session 2): messages failed Error: messages broke");
  store.close();
});

test("the parts are read once, at the first end (built after the agent runtime that is given the sequence)", () => {
  const { ends, reads, store } = setup();
  expect(reads()).toBe(0);
  ends.ended({ agent, session: 1, exitCode: 0 });
  ends.detached({ agent, session: 2 });
  expect(reads()).toBe(1);
  store.close();
});
