import type { AgentPatch, AgentRecord } from "../../store/agents.ts";
import type { SignalRead } from "../files/signal.ts";
import type { Failure } from "../../protocol/failure.ts";
import { completionPatch } from "./completion.ts";
import { describeFailure, type Diagnosis } from "./diagnose.ts";
import { classifyEnd } from "./outcome.ts";
import { decide, type Action, type RetrySettings } from "./retry-policy.ts";
import { getProvider } from "../../../providers/index.ts";

/** Whether the agent's run has a provider session a recovery can resume. */
export function hasSession(rec: AgentRecord): boolean {
  return !!rec.providerSessionId && !!getProvider(rec.provider)?.buildResume;
}

/**
 * Where failover between accounts plugs in (the accounts work): given the agent and its
 * `usage_limit` failure (with `resetsAt` when the provider said it) or `auth` failure (its
 * credential refused), the action to take: a retry (`how: "resume"`, on another account it has
 * switched to), `blocked` until the first spent account of the provider comes back, or `fail`.
 * Without one, neither is retried: never on the same account.
 */
export type FailoverHook = (rec: AgentRecord, failure: Failure) => Action;

export interface RunEnd {
  read: SignalRead;
  exitCode: number | null;
  /** What the provider's output says (diagnose), when the run ended without a valid signal. */
  diagnosis: Diagnosis | null;
  /** A failure troupe itself stopped the run for (a timeout, the budget), recorded at the stop. */
  pending: Failure | null;
}

/**
 * The agent's patch at the end of a run: the signal's outcome, and for a failure its class, the
 * line that showed it, the attempt, and what the policy does next: a retry is `starting` with
 * `retryAt` (a deadline in the store), anything else `failed`.
 */
export function endPatch(rec: AgentRecord, end: RunEnd, hasSession: boolean, s: RetrySettings, random: number, failover: FailoverHook | null): AgentPatch {
  const patch = completionPatch(end.read, end.exitCode);
  // the failure an earlier attempt of this run had stays: it tells how this attempt came about,
  // and a recovery must not follow another one (a person's resume clears it)
  if (patch.status !== "failed") return { ...patch, retryAt: null };
  const signalled = end.read.kind === "ok";
  const d: Diagnosis | null = !signalled && end.pending ? { failure: end.pending.class, evidence: end.pending.evidence } : classifyEnd(end.read, end.exitCode, end.diagnosis);
  if (!d) return patch;
  // the provider's evidence (or the limit that stopped it) explains the error; a missing or
  // malformed signal already says itself
  const explained = !signalled && (d === end.diagnosis || end.pending !== null);
  const error = explained ? `${describeFailure(d)}; ${patch.error}` : patch.error;
  return { ...patch, error, ...failurePatch(rec, d, hasSession, s, random, failover) };
}

/** A failure of the agent's current attempt, and the policy's answer: `starting` until `retryAt`, or `failed`. */
export function failurePatch(rec: AgentRecord, d: Diagnosis, hasSession: boolean, s: RetrySettings, random: number, failover: FailoverHook | null): AgentPatch {
  const failure: Failure = { class: d.failure, evidence: d.evidence, attempt: rec.attempt, ...(d.resetsAt !== undefined && { resetsAt: d.resetsAt }) };
  // the class that failed the attempt before this one, when this one is its retry
  const previous = rec.failure && rec.failure.attempt === rec.attempt - 1 ? rec.failure.class : null;
  let action = decide(d.failure, { attempt: rec.attempt, previous, hasSession }, s, random);
  if (action.kind === "failover") action = failover ? failover(rec, failure) : { kind: "fail" };
  if (action.kind === "blocked") return { status: "blocked", failure: { ...failure, maxAttempts: action.attempt }, retryAt: action.until };
  if (action.kind === "retry") return { status: "starting", failure: { ...failure, maxAttempts: action.how === "rerun" ? s.maxAttempts : rec.attempt + 1 }, retryAt: Date.now() + action.delayMs };
  return { status: "failed", failure, retryAt: null };
}
