import { describe, expect, test } from "bun:test";
import { TroupeError } from "../../src/errors.ts";
import { reconnecting, withReconnect } from "../../src/client/reconnect.ts";

const gone = () => new TroupeError("daemon_unavailable", "the daemon connection broke: reset");

describe("withReconnect", () => {
  test("sends again while the daemon is gone, and returns the first answer", async () => {
    let calls = 0;
    const got = await withReconnect(Date.now() + 5_000, async () => {
      if (++calls < 3) throw gone();
      return "recorded";
    });
    expect({ got, calls }).toEqual({ got: "recorded", calls: 3 });
  });

  test("another error is not a reason to send again", async () => {
    let calls = 0;
    const run = withReconnect(Date.now() + 5_000, async () => {
      calls++;
      throw new TroupeError("conflict", "already signalled");
    });
    await expect(run).rejects.toThrow("already signalled");
    expect(calls).toBe(1);
  });

  test("gives up with the daemon's error at the deadline", async () => {
    let calls = 0;
    const run = withReconnect(Date.now() + 200, async () => {
      calls++;
      throw gone();
    });
    await expect(run).rejects.toThrow("connection broke");
    expect(calls).toBeGreaterThan(1);
  });
});

describe("reconnecting", () => {
  test("runs the attempt again after the daemon went away, each with its own signal, aborted when it ends", async () => {
    const signals: AbortSignal[] = [];
    let connects = 0;
    const got = await reconnecting(async (connected, signal) => {
      signals.push(signal);
      connected();
      if (++connects < 3) throw gone();
      return connects;
    });
    expect(got).toBe(3);
    expect(new Set(signals).size).toBe(3);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  test("a failure that is not the daemon's going away ends it at once", async () => {
    await expect(reconnecting(async () => Promise.reject(new TroupeError("agent_not_found", "no agent 'x'")))).rejects.toThrow("no agent 'x'");
  });
});
