import { describe, expect, test } from "bun:test";
import { lasts, recordWindows, runsOutAt, usedUpUntil, type RecordedWindow } from "../../src/accounts/forecast.ts";

const NOW = 1_800_000_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;

/** A 5-hour window `used` at NOW, resetting `resetIn` from now, first seen `firstAgo` before at `firstUsed`. */
function five(used: number, resetIn: number, first?: { used: number; ago: number }): RecordedWindow {
  return { window: "five_hour", utilization: used, resetsAt: NOW + resetIn, seenAt: NOW, first: first ? { utilization: first.used, seenAt: NOW - first.ago } : { utilization: used, seenAt: NOW } };
}

describe("the quota forecast", () => {
  test("a window paced to run out before its reset runs the account out then: 1 h in, 96.7 % used, about 2 minutes left", () => {
    const w = five(0.967, 4 * HOUR);
    const out = runsOutAt([w], NOW)!;
    expect((out - NOW) / MIN).toBeCloseTo(2.05, 1);
    expect(lasts([w], 10 * MIN, NOW)).toBe(false);
    expect(lasts([w], 1 * MIN, NOW)).toBe(true);
  });

  test("a window used slowly lasts to its reset; so does an account with no window, or only windows past their reset", () => {
    expect(runsOutAt([five(0.3, 2 * HOUR)], NOW)).toBeNull();
    expect(runsOutAt([], NOW)).toBeNull();
    expect(runsOutAt([five(0.99, -MIN)], NOW)).toBeNull();
    expect(lasts([], 10 * HOUR, NOW)).toBe(true);
  });

  test("a burst since its first report outpaces the window's average: 20 % to 60 % in 30 minutes, 40 % left: 30 minutes", () => {
    // the average alone (60 % over 4 h) would last past the reset
    const w = five(0.6, HOUR, { used: 0.2, ago: 30 * MIN });
    expect((runsOutAt([w], NOW)! - NOW) / MIN).toBeCloseTo(30, 0);
    expect(runsOutAt([{ ...w, first: { utilization: 0.6, seenAt: NOW } }], NOW)).toBeNull();
  });

  test("a window used up is out now, until its reset; the earliest of several windows is the account's", () => {
    expect(runsOutAt([five(1, HOUR)], NOW)).toBe(NOW);
    expect(usedUpUntil([five(1, HOUR), five(0.2, 2 * HOUR)], NOW)).toBe(NOW + HOUR);
    expect(usedUpUntil([five(1, -1)], NOW)).toBeNull();
    const week: RecordedWindow = { window: "seven_day", utilization: 0.99, resetsAt: NOW + 3 * 86_400_000, seenAt: NOW, first: { utilization: 0.99, seenAt: NOW } };
    expect(runsOutAt([five(0.3, 2 * HOUR), week], NOW)).toBe(runsOutAt([week], NOW));
  });

  test("a window of unknown length is paced from its reports alone", () => {
    const odd = { ...five(0.5, HOUR, { used: 0.1, ago: 20 * MIN }), window: "monthly" };
    expect((runsOutAt([odd], NOW)! - NOW) / MIN).toBeCloseTo(25, 0);
    expect(runsOutAt([{ ...odd, first: { utilization: 0.5, seenAt: NOW } }], NOW)).toBeNull();
  });

  test("recording keeps a window's first report while its reset holds, starts over at a new reset, and drops windows past theirs", () => {
    const first = recordWindows([], [{ window: "five_hour", utilization: 0.2, resetsAt: NOW + HOUR }], NOW - 30 * MIN);
    const again = recordWindows(first, [{ window: "five_hour", utilization: 0.5, resetsAt: NOW + HOUR + 1000 }], NOW);
    expect(again).toEqual([{ window: "five_hour", utilization: 0.5, resetsAt: NOW + HOUR + 1000, seenAt: NOW, first: { utilization: 0.2, seenAt: NOW - 30 * MIN } }]);
    const next = recordWindows(again, [{ window: "five_hour", utilization: 0.01, resetsAt: NOW + 6 * HOUR }], NOW + 2 * HOUR);
    expect(next[0]!.first).toEqual({ utilization: 0.01, seenAt: NOW + 2 * HOUR });
    expect(recordWindows(again, [], NOW + 2 * HOUR)).toEqual([]);
  });
});
