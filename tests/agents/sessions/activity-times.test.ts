import { expect, test } from "bun:test";
import { ActivityTimes } from "../../../src/agents/sessions/activity-times.ts";
import type { Logger } from "../../../src/events/log.ts";

const quiet = { info() {}, warn() {}, error() {} } as unknown as Logger;

test("times wait in memory and are written together, the newest per agent; a forgotten agent's is not written", () => {
  const writes: Map<string, number>[] = [];
  const times = new ActivityTimes((t) => void writes.push(new Map(t)), quiet);
  times.note("a", 1);
  times.note("b", 2);
  times.note("a", 3);
  times.note("c", 4);
  times.forget("c");
  expect(writes).toEqual([]);
  times.flush();
  expect(writes).toEqual([new Map([["a", 3], ["b", 2]])]);
  times.flush(); // nothing waits: no write
  expect(writes.length).toBe(1);
  times.stop();
});

test("a write the store refuses keeps the times for the next one, behind any newer time", () => {
  const writes: Map<string, number>[] = [];
  let refuse = true;
  const times = new ActivityTimes((t) => {
    if (refuse) throw new Error("disk full");
    writes.push(new Map(t));
  }, quiet);
  times.note("a", 1);
  times.note("b", 2);
  times.flush();
  times.note("b", 5);
  refuse = false;
  times.stop(); // stopping writes what waits
  expect(writes).toEqual([new Map([["b", 5], ["a", 1]])]);
});

test("without a flush asked for, the times are written once the flush period has passed", async () => {
  const writes: Map<string, number>[] = [];
  const times = new ActivityTimes((t) => void writes.push(new Map(t)), quiet);
  times.note("a", 7);
  await new Promise((r) => setTimeout(r, 2_300));
  expect(writes).toEqual([new Map([["a", 7]])]);
  times.stop();
});
