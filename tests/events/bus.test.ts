import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventBus, type Published } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { createStore } from "../../src/store/index.ts";
import { makeAgent } from "../ui/helpers/fake-client.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-bus-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logPath = join(dir, "daemon.log");
const store = createStore(join(dir, "troupe.db"), new Logger(logPath));
const bus = new EventBus(store.events, new Logger(logPath));
const removed = (agentId: string) => ({ type: "agent:removed", agentId }) as const;

test("a listener that throws is logged and the others still get every event", () => {
  const seen: string[] = [];
  const offs = [
    bus.subscribe((p) => seen.push(`a ${p.id}`)),
    bus.subscribe(() => {
      throw new Error("listener bug");
    }),
    bus.subscribe((p) => seen.push(`c ${p.id}`)),
  ];
  const first = bus.publish(removed("x"));
  const second = bus.publish(removed("y"));
  expect(seen).toEqual([`a ${first.id}`, `c ${first.id}`, `a ${second.id}`, `c ${second.id}`]);
  expect(readFileSync(logPath, "utf8")).toContain("error a listener of agent:removed threw Error: listener bug");
  for (const off of offs) off();
});

test("an event published by a listener reaches every listener after the one being delivered", () => {
  const seen: string[] = [];
  const label = (p: Published) => (p.event.type === "agent:removed" ? p.event.agentId : p.event.type);
  const offs = [
    bus.subscribe((p) => {
      seen.push(`a ${label(p)}`);
      if (label(p) === "first") bus.publish(removed("nested"));
    }),
    bus.subscribe((p) => seen.push(`b ${label(p)}`)),
  ];
  const outer = bus.publish(removed("first"));
  expect(seen).toEqual(["a first", "b first", "a nested", "b nested"]);
  // ids follow the same order: a replay after a reconnect sees what live listeners saw
  expect(store.events.since(outer.id! - 1).map((p) => label(p as Published))).toEqual(["first", "nested"]);
  for (const off of offs) off();
});

test("agent:ended stays inside the daemon: not in the replay log", () => {
  const before = store.events.firstId();
  const p = bus.publish({ type: "agent:ended", agent: makeAgent(), session: 1, exitCode: 0 });
  expect(p.id).toBeNull();
  expect(store.events.since(before).some((e) => (e.event.type as string) === "agent:ended")).toBe(false);
});
