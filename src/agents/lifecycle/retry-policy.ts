import type { FailureClass } from "../../protocol/failure.ts";
import { assertNever } from "../../errors.ts";

/** How each failure class is handled: the whole retry policy, as data. */
export type Treatment =
  /** Run again after an exponential backoff, up to the configured attempts. */
  | "backoff"
  /** Resume the same session once, telling the agent exactly what is missing or malformed. */
  | "resume_once"
  /** Never on the same account: another account of the provider, if the person has one (src/accounts/failover.ts). */
  | "failover"
  | "never";

export const POLICY: Readonly<Record<FailureClass, Treatment>> = {
  rate_limit: "backoff",
  overloaded: "backoff",
  network: "backoff",
  crash: "backoff",
  timeout: "backoff",
  missing_signal: "resume_once",
  bad_output: "resume_once",
  interrupted: "resume_once",
  usage_limit: "failover",
  auth: "failover",
  budget: "never",
  setup: "never",
  unknown: "never",
};

export interface RetrySettings {
  baseDelayMs: number;
  maxAttempts: number;
  /** Share of each delay drawn at random either way (0 to 1). */
  jitter: number;
  resumeInterrupted: boolean;
}

export const DEFAULT_RETRY: RetrySettings = { baseDelayMs: 1_000, maxAttempts: 3, jitter: 0.2, resumeInterrupted: true };

export type Action =
  /** Start attempt `attempt` after `delayMs`: the run again (`rerun`), or its session resumed with what is wrong (`resume`). */
  | { kind: "retry"; attempt: number; delayMs: number; how: "rerun" }
  | { kind: "retry"; attempt: number; delayMs: 0; how: "resume" }
  | { kind: "failover" }
  /** Nothing to run on until `until` (every account of the provider is spent): `blocked`, then attempt `attempt`. */
  | { kind: "blocked"; attempt: number; until: number }
  | { kind: "fail" };

/** What a decision looks at besides the class. */
export interface Situation {
  /** 1 for the first run, one more per retry. */
  attempt: number;
  /** The class that failed the attempt before this one (null: the first run, or one that did not fail). */
  previous: FailureClass | null;
  /**
   * The run has a provider session to resume. A recovery resumes that session; without one (a
   * shell command: its "resume" runs the person's command again) nothing is recovered by itself.
   */
  hasSession: boolean;
}

/**
 * What to do after an attempt failed with `failure`. Pure: `random` in [0, 1) is the jitter's
 * draw. A one-time recovery (`resume_once`) never follows another one, so an agent is never
 * resumed in a loop.
 */
export function decide(failure: FailureClass, { attempt, previous, hasSession }: Situation, s: RetrySettings, random: number): Action {
  const treatment = POLICY[failure];
  switch (treatment) {
    case "backoff": {
      if (attempt >= s.maxAttempts) return { kind: "fail" };
      const base = s.baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.max(0, Math.round(base * (1 + s.jitter * (2 * random - 1))));
      return { kind: "retry", attempt: attempt + 1, delayMs, how: "rerun" };
    }
    case "resume_once":
      if (!hasSession) return { kind: "fail" };
      if (previous !== null && POLICY[previous] === "resume_once") return { kind: "fail" };
      if (failure === "interrupted" && !s.resumeInterrupted) return { kind: "fail" };
      return { kind: "retry", attempt: attempt + 1, delayMs: 0, how: "resume" };
    case "failover":
      return { kind: "failover" };
    case "never":
      return { kind: "fail" };
    default:
      return assertNever(treatment);
  }
}
