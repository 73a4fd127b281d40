import { expect, jest, test } from "bun:test";
import { Publisher } from "../../src/ui/kit/publisher.ts";
import { guardMemory, settleMemory } from "../../src/ui/memory-guard.ts";

test("the memory guard looks at RSS on output and once after it, never while the dashboard is idle", () => {
  jest.useFakeTimers();
  try {
    const output = new Publisher(30);
    let looks = 0;
    let collections = 0;
    let young = 0;
    let rss = 50;
    const stop = guardMemory(output, { budgetBytes: 100, everyMs: 2_000, rss: () => (looks++, rss), gc: () => collections++, gcYoung: () => young++ });
    jest.advanceTimersByTime(3_600_000);
    expect(looks).toBe(0);
    expect(young).toBe(0);
    // a burst: one look at once, then at most one per interval, then one after it ends
    rss = 150;
    for (let i = 0; i < 30; i++) {
      output.flush();
      jest.advanceTimersByTime(100);
    }
    expect(looks).toBe(2);
    jest.advanceTimersByTime(2_000);
    expect(looks).toBe(3);
    expect(collections).toBe(3);
    jest.advanceTimersByTime(3_600_000);
    expect(looks).toBe(3);
    stop();
  } finally {
    jest.useRealTimers();
  }
});

test("each published frame's garbage is collected young, before the next frame, without a full collection under the budget", () => {
  jest.useFakeTimers();
  try {
    const output = new Publisher(30);
    let collections = 0;
    let young = 0;
    const stop = guardMemory(output, { budgetBytes: 100, everyMs: 2_000, rss: () => 50, gc: () => collections++, gcYoung: () => young++ });
    for (let i = 0; i < 30; i++) {
      output.flush();
      expect(young).toBe(i + 1);
      jest.advanceTimersByTime(33);
    }
    jest.advanceTimersByTime(3_600_000);
    expect(young).toBe(30);
    expect(collections).toBe(0);
    stop();
    output.flush();
    expect(young).toBe(30);
  } finally {
    jest.useRealTimers();
  }
});

test("the settler shrinks once after each burst of work ends, output pauses first, never on its own", () => {
  jest.useFakeTimers();
  try {
    const output = new Publisher(30);
    let shrinks = 0;
    const settler = settleMemory(output, () => shrinks++, 250);
    jest.advanceTimersByTime(3_600_000);
    expect(shrinks).toBe(0);
    // work ending twice within the wait shrinks once, after the later
    settler.settled();
    jest.advanceTimersByTime(200);
    settler.settled();
    jest.advanceTimersByTime(200);
    expect(shrinks).toBe(0);
    jest.advanceTimersByTime(50);
    expect(shrinks).toBe(1);
    jest.advanceTimersByTime(3_600_000);
    expect(shrinks).toBe(1);
    // output alone arms nothing
    output.flush();
    jest.advanceTimersByTime(3_600_000);
    expect(shrinks).toBe(1);
    // pending while output streams: waits for it to pause
    settler.settled();
    for (let i = 0; i < 30; i++) {
      output.flush();
      jest.advanceTimersByTime(100);
    }
    expect(shrinks).toBe(1);
    jest.advanceTimersByTime(250);
    expect(shrinks).toBe(2);
    // stopped before it is due: nothing
    settler.settled();
    settler.stop();
    jest.advanceTimersByTime(3_600_000);
    expect(shrinks).toBe(2);
  } finally {
    jest.useRealTimers();
  }
});
