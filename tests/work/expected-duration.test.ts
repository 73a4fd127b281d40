import { expect, test } from "bun:test";
import { DEFAULT_TASK_MINUTES, expectedTaskMs } from "../../src/work/expected-duration.ts";

const MIN = 60_000;
const took = (...mins: number[]) => mins.map((m, i) => ({ startedAt: i * 1000, mergedAt: i * 1000 + m * MIN }));

test("a task is expected to take its phase's median finished task, else the config's minutes, else the default", () => {
  expect(expectedTaskMs(took(3, 10, 1), 45)).toBe(3 * MIN);
  expect(expectedTaskMs(took(2, 4, 10, 1), undefined)).toBe(3 * MIN);
  expect(expectedTaskMs([], 45)).toBe(45 * MIN);
  expect(expectedTaskMs([], undefined)).toBe(DEFAULT_TASK_MINUTES * MIN);
  // a clock that went back gives no span
  expect(expectedTaskMs([{ startedAt: 10, mergedAt: 5 }], 1)).toBe(MIN);
});
