import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { createStore, type Store } from "../../src/store/index.ts";
import type { AgentRecord } from "../../src/store/agents.ts";
import type { Caller } from "../../src/agents/caller.ts";
import { MessageService, PROMPT_BUDGET } from "../../src/messages/service.ts";
import type { AgentStatus } from "../../src/protocol/status.ts";

/** The service over a real store and bus; agents are rows (no processes: delivery to sessions is claimed as the agent runtime would). */
const dir = mkdtempSync("/tmp/tr-msg-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
let store: Store;
let bus: EventBus;
let svc: MessageService;
const person: Caller = { kind: "user" };
const never = () => false;
const signal = new AbortController().signal;

beforeEach(() => {
  const log = new Logger(join(dir, "daemon.log"));
  store = createStore(join(dir, `m${++n}.db`), log);
  bus = new EventBus(store.events, log);
  svc = new MessageService(store, bus, () => "/bin/troupe");
});

function agent(name: string, status: AgentStatus = "running", parentId: string | null = null): AgentRecord {
  store.agents.insert({ id: `ag_${name}`, name, provider: "generic", prompt: null, command: "true", model: null, cwd: dir, worktree: null, branch: null, baseRef: null, permissions: "skip", tokenHash: `h_${name}`, signalFile: join(dir, name), parentId });
  return store.agents.update(`ag_${name}`, { status });
}
const as = (a: AgentRecord): Caller => ({ kind: "agent", agent: a });
const texts = (ms: { text: string }[]) => ms.map((m) => m.text);

describe("sending", () => {
  test("the sender is the caller's identity; one message per addressee; `all` reaches every other running or idle agent and never wakes", () => {
    const a = agent("a");
    const b = agent("b", "done");
    agent("c", "stopped");
    agent("d", "failed");
    agent("e", "waiting");
    const [m] = svc.send(as(a), { to: "b", text: "hi" }, never);
    expect(m).toMatchObject({ fromId: a.id, fromName: "a", toId: b.id, toName: "b", status: "queued", id: `msg_${m!.seq}` });
    const all = svc.send(as(a), { to: "all", text: "everyone" }, () => true);
    expect(all.map((x) => x.toName).sort()).toEqual(["b", "e"]);
    expect(store.messages.wakeable()).toEqual([]);
    expect(() => svc.send(as(a), { to: "a", text: "me" }, never)).toThrow("cannot send a message to itself");
    expect(() => svc.send(person, { to: "zzz", text: "x" }, never)).toThrow("no agent 'zzz'");
  });

  test("supervisor: the sender's parent, or the person for an agent the person started", () => {
    const boss = agent("boss", "done");
    const worker = agent("worker", "running", boss.id);
    expect(svc.send(as(worker), { to: "supervisor", text: "done" }, () => true)[0]).toMatchObject({ toId: boss.id });
    expect(store.messages.wakeable()).toEqual([boss.id]);
    expect(svc.send(as(boss), { to: "supervisor", text: "up" }, never)[0]).toMatchObject({ toId: "user" });
    expect(() => svc.send(person, { to: "supervisor", text: "x" }, never)).toThrow("the person has no supervisor");
  });
});

describe("the inbox", () => {
  test("returns the queued messages oldest first and delivers them: a second read gets nothing, `after` pages through all", async () => {
    const a = agent("a");
    for (let i = 0; i < 5; i++) svc.send(person, { to: "a", text: `m${i}` }, never);
    const first = await svc.inbox(as(a), {}, signal);
    expect(texts(first)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(first.every((m) => m.status === "delivered" && m.deliveredAt !== null)).toBe(true);
    expect(await svc.inbox(as(a), {}, signal)).toEqual([]);
    expect(texts(await svc.inbox(as(a), { after: first[2]!.seq }, signal))).toEqual(["m3", "m4"]);
    // the person's inbox is the messages to `user`
    expect(await svc.inbox(person, {}, signal)).toEqual([]);
  });

  test("a waiting read is woken by the message, not by one to someone else", async () => {
    const a = agent("a");
    agent("b");
    const read = svc.inbox(as(a), { waitMs: 5_000 }, signal);
    svc.send(person, { to: "b", text: "not yours" }, never);
    setTimeout(() => svc.send(person, { to: "a", text: "yours" }, never), 20);
    expect(texts(await read)).toEqual(["yours"]);
  });

  test("a reader that left before the answer gives its messages back", async () => {
    const a = agent("a");
    svc.send(person, { to: "a", text: "keep me" }, never);
    const gone = new AbortController();
    gone.abort();
    expect(await svc.inbox(as(a), {}, gone.signal)).toEqual([]);
    expect(texts(await svc.inbox(as(a), {}, signal))).toEqual(["keep me"]);
  });
});

describe("delivery to a session's prompt", () => {
  test("claims the queued messages in order for the session, never the ones the inbox delivered; a session that never started gives them back", async () => {
    const a = agent("a", "done");
    svc.send(person, { to: "a", text: "one" }, never);
    expect(texts(await svc.inbox(as(a), {}, signal))).toEqual(["one"]);
    svc.send(person, { to: "a", text: "two" }, never);
    svc.send(person, { to: "a", text: "three" }, never);
    const claim = svc.claim(a.id, 2)!;
    expect(claim.text).toMatch(/\[msg_\d+\] from the person \(user\):\ntwo\n\n\[msg_\d+\] from the person \(user\):\nthree/);
    expect(claim.text).not.toContain("one");
    expect(await svc.inbox(as(a), {}, signal)).toEqual([]);
    // session 2 never got a pid: the daemon died, or the launch failed
    svc.requeueUnstarted(a.id, 2);
    expect(texts(await svc.inbox(as(a), {}, signal))).toEqual(["two", "three"]);
    svc.send(person, { to: "a", text: "four" }, never);
    svc.claim(a.id, 3)!.release();
    expect(texts(await svc.inbox(as(a), {}, signal))).toEqual(["four"]);
  });

  test("a session that ran keeps its messages delivered", () => {
    const a = agent("a", "done");
    svc.send(person, { to: "a", text: "one" }, never);
    svc.claim(a.id, 1);
    store.sessions.insert({ agentId: a.id, session: 1, stdoutPath: "o", stderrPath: "e", exitPath: "x", marker: "k" });
    store.sessions.setPid(a.id, 1, 4242, null);
    svc.requeueUnstarted(null);
    expect(store.messages.hasFor(a.id, null)).toBe(false);
  });

  test("a prompt carries at most PROMPT_BUDGET of text, in order; the rest wait and are counted", async () => {
    const a = agent("a", "done");
    const big = "x".repeat(PROMPT_BUDGET / 4 - 40);
    for (let i = 0; i < 6; i++) svc.send(person, { to: "a", text: `${i}${big}` }, never);
    const claim = svc.claim(a.id, 2)!;
    // each is a little over a quarter of the budget: three fit
    const carried = [...claim.text.matchAll(/^(\d)x+$/gm)].map((m) => m[1]);
    expect(carried).toEqual(["0", "1", "2"]);
    expect(claim.text.includes("3 more message(s) wait for you")).toBe(true);
    expect(texts(await svc.inbox(as(a), {}, signal)).map((t) => t[0])).toEqual(["3", "4", "5"]);
  });

  test("a message too long for any prompt never wakes the agent (it waits for the inbox)", () => {
    const a = agent("a", "done");
    svc.send(person, { to: "a", text: "y".repeat(PROMPT_BUDGET) }, () => true);
    expect(store.messages.wakeReady(a.id, PROMPT_BUDGET)).toBe(false);
    svc.send(person, { to: "a", text: "small" }, () => true);
    expect(store.messages.wakeReady(a.id, PROMPT_BUDGET)).toBe(false);
  });
});

describe("read marks", () => {
  test("only messages to the person; an unknown id is not found", () => {
    const a = agent("a");
    const [m] = svc.send(as(a), { to: "user", text: "look" }, never);
    expect(svc.markRead(m!.id)).toMatchObject({ status: "read" });
    const [toA] = svc.send(person, { to: "a", text: "x" }, never);
    expect(() => svc.markRead(toA!.id)).toThrow("not the person");
    expect(() => svc.markRead("msg_999")).toThrow("no message 'msg_999'");
    expect(() => svc.markRead("nonsense")).toThrow("no message 'nonsense'");
  });
});
