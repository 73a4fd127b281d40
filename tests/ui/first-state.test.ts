import { describe, expect, test } from "bun:test";
import { firstState } from "../../src/ui/first-state.ts";
import type { Mirror, MirrorView } from "../../src/ui/mirror/daemon-mirror.ts";

/** The part of a mirror the first frame reads: its connection, who is told of a change, and whether the daemon answered. */
function mirrorAt(answered: boolean | undefined) {
  const fns = new Set<() => void>();
  let connection: MirrorView["connection"] = { state: "connecting" };
  const mirror = {
    getView: () => ({ connection }) as MirrorView,
    subscribe: (fn: () => void) => (fns.add(fn), () => fns.delete(fn)),
    ...(answered === undefined ? {} : { answered: () => answered }),
  } as unknown as Mirror;
  const settle = (state: "live" | "down") => {
    connection = state === "live" ? { state } : { state, error: "refused", since: Date.now() };
    for (const fn of fns) fn();
  };
  return { mirror, settle, state: () => connection.state, listeners: () => fns.size };
}

describe("the first frame's wait for the snapshot", () => {
  test("a daemon that answered is waited for past the short wait: the first frame has the agents", async () => {
    const m = mirrorAt(true);
    setTimeout(() => m.settle("live"), 150);
    await firstState(m.mirror, 30, 2_000);
    expect(m.state()).toBe("live");
    expect(m.listeners()).toBe(0);
  });

  test("a daemon that has not answered is not waited for: the frame says connecting", async () => {
    const m = mirrorAt(false);
    const late = setTimeout(() => m.settle("live"), 1_000);
    await firstState(m.mirror, 30, 2_000);
    clearTimeout(late);
    expect(m.state()).toBe("connecting");
  });

  test("a mirror that cannot tell (several sources) keeps the short wait", async () => {
    const m = mirrorAt(undefined);
    const late = setTimeout(() => m.settle("live"), 1_000);
    await firstState(m.mirror, 30, 2_000);
    clearTimeout(late);
    expect(m.state()).toBe("connecting");
  });

  test("a snapshot that never comes holds the frame no longer than the long wait", async () => {
    const m = mirrorAt(true);
    const started = Date.now();
    await firstState(m.mirror, 30, 200);
    expect(m.state()).toBe("connecting");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(m.listeners()).toBe(0);
  });

  test("a daemon found down ends the wait at once", async () => {
    const m = mirrorAt(true);
    setTimeout(() => m.settle("down"), 10);
    await firstState(m.mirror, 5_000, 10_000);
    expect(m.state()).toBe("down");
  });

  test("already settled: no wait", async () => {
    const m = mirrorAt(true);
    m.settle("live");
    await firstState(m.mirror, 5_000, 10_000);
    expect(m.listeners()).toBe(0);
  });
});
