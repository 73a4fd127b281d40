import { z } from "zod";

/**
 * Why a run failed, as the lifecycle acts on it (src/agents/lifecycle/retry-policy.ts maps each class
 * to retry, resume once, or never). Providers map their own structured errors to these first and
 * match text second.
 */
export const FAILURE_CLASSES = [
  "auth",
  "usage_limit",
  "rate_limit",
  "overloaded",
  "network",
  "timeout",
  "crash",
  "interrupted",
  "missing_signal",
  "bad_output",
  "budget",
  "setup",
  "unknown",
] as const;
export const FailureClassSchema = z.enum(FAILURE_CLASSES);
export type FailureClass = z.infer<typeof FailureClassSchema>;

/** The failure on an agent: its class, the line that showed it, the attempt (run) that failed. */
export const FailureSchema = z.object({
  class: FailureClassSchema,
  evidence: z.string(),
  attempt: z.number().int().positive(),
  /** When a spent quota comes back (epoch ms), when the provider says so (`usage_limit`). */
  resetsAt: z.number().int().optional(),
  /** Attempts the policy allows for this class, when it retries it. */
  maxAttempts: z.number().int().positive().optional(),
});
export type Failure = z.infer<typeof FailureSchema>;

/** Whether a person should see the failure now: the agent failed, or a retry of it is pending. */
export const failureShows = (a: { status: string; failure: Failure | null; retryAt: number | null }): a is { status: string; failure: Failure; retryAt: number | null } =>
  a.failure !== null && (a.status === "failed" || a.retryAt !== null);

/**
 * One line for a person: the class, and either the next attempt ("attempt 2/3 in 4s") or the
 * evidence. `retryAt` is the agent's (null: no retry pending).
 */
export function failureLine(f: Failure, retryAt: number | null, now: number, status?: string): string {
  if (retryAt !== null && status === "blocked") {
    const mins = Math.max(0, Math.ceil((retryAt - now) / 60_000));
    return `${f.class} · every account spent; resumes at ${new Date(retryAt).toISOString().slice(11, 16)} UTC (in ${mins}m)`;
  }
  if (retryAt !== null) {
    const secs = Math.max(0, Math.ceil((retryAt - now) / 1000));
    const of = f.maxAttempts ? `/${f.maxAttempts}` : "";
    return `${f.class} · attempt ${f.attempt + 1}${of} in ${secs}s`;
  }
  return `${f.class}: ${f.evidence}`;
}
