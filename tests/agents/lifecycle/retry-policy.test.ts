import { describe, expect, test } from "bun:test";
import { DEFAULT_RETRY, POLICY, decide, type Action } from "../../../src/agents/lifecycle/retry-policy.ts";
import { FAILURE_CLASSES, type FailureClass } from "../../../src/protocol/failure.ts";

// jitter off: delays are exact; a draw of 0.5 is the middle either way
const S = { ...DEFAULT_RETRY, jitter: 0 };
const retry = (attempt: number, delayMs: number): Action => ({ kind: "retry", attempt, delayMs, how: "rerun" });
const resume: Action = { kind: "retry", attempt: 2, delayMs: 0, how: "resume" };
const fail: Action = { kind: "fail" };
const at = (attempt: number, previous: FailureClass | null = null, hasSession = true) => ({ attempt, previous, hasSession });

/** class × failed attempt (1, 2, 3) → action, with no earlier failure. */
const TABLE: Record<FailureClass, [Action, Action, Action]> = {
  rate_limit: [retry(2, 1000), retry(3, 2000), fail],
  overloaded: [retry(2, 1000), retry(3, 2000), fail],
  network: [retry(2, 1000), retry(3, 2000), fail],
  crash: [retry(2, 1000), retry(3, 2000), fail],
  timeout: [retry(2, 1000), retry(3, 2000), fail],
  missing_signal: [resume, { ...resume, attempt: 3 }, { ...resume, attempt: 4 }],
  bad_output: [resume, { ...resume, attempt: 3 }, { ...resume, attempt: 4 }],
  interrupted: [resume, { ...resume, attempt: 3 }, { ...resume, attempt: 4 }],
  usage_limit: [{ kind: "failover" }, { kind: "failover" }, { kind: "failover" }],
  auth: [{ kind: "failover" }, { kind: "failover" }, { kind: "failover" }],
  budget: [fail, fail, fail],
  setup: [fail, fail, fail],
  unknown: [fail, fail, fail],
};

describe("the retry policy, as a table", () => {
  test("every class has a row", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...FAILURE_CLASSES].sort());
    expect(Object.keys(POLICY).sort()).toEqual([...FAILURE_CLASSES].sort());
  });

  for (const cls of FAILURE_CLASSES) {
    test(`${cls}: ${POLICY[cls]}`, () => {
      TABLE[cls].forEach((want, i) => expect(decide(cls, at(i + 1), S, 0.5)).toEqual(want));
    });
  }

  test("a one-time recovery never follows another: no resume loop", () => {
    for (const before of ["missing_signal", "bad_output", "interrupted"] as const) {
      expect(decide("missing_signal", at(2, before), S, 0.5)).toEqual(fail);
      expect(decide("interrupted", at(2, before), S, 0.5)).toEqual(fail);
    }
    // after a transient failure it is still allowed
    expect(decide("missing_signal", at(2, "network"), S, 0.5)).toEqual({ ...resume, attempt: 3 });
  });

  test("a recovery resumes a session: without one (a shell command) nothing is run again by itself", () => {
    for (const cls of ["missing_signal", "bad_output", "interrupted"] as const) expect(decide(cls, at(1, null, false), S, 0.5)).toEqual(fail);
    // a transient failure the command itself declared is run again
    expect(decide("network", at(1, null, false), S, 0.5)).toEqual(retry(2, 1000));
  });

  test("resumeInterrupted: false turns the interrupted resume off", () => {
    expect(decide("interrupted", at(1), { ...S, resumeInterrupted: false }, 0.5)).toEqual(fail);
    expect(decide("missing_signal", at(1), { ...S, resumeInterrupted: false }, 0.5)).toEqual(resume);
  });

  test("backoff doubles from the configured base; jitter moves it at most its share either way", () => {
    const s = { ...DEFAULT_RETRY, baseDelayMs: 500, maxAttempts: 5, jitter: 0.2 };
    expect(decide("network", at(3), s, 0.5)).toEqual(retry(4, 2000));
    expect(decide("network", at(3), s, 0)).toEqual(retry(4, 1600));
    expect(decide("network", at(3), s, 0.999999)).toEqual(retry(4, 2400));
    expect(decide("network", at(5), s, 0.5)).toEqual(fail);
  });
});
