import { TroupeError, errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { FailureClass } from "../../protocol/failure.ts";
import { isLive } from "../../protocol/status.ts";
import type { AgentPatch, AgentRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import type { AgentDeps } from "../deps.ts";
import type { Diagnosis } from "./diagnose.ts";
import { nothingFound } from "../processes/find.ts";
import { KILL_GRACE_MS, type Stopper } from "../processes/stopper.ts";
import type { WatcherHooks } from "../sessions/session-watcher.ts";
import { failurePatch, hasSession, type FailoverHook } from "./end-patch.ts";
import { RunLimits } from "./limits.ts";
import { recoveryPrompt } from "./outcome.ts";
import { POLICY } from "./retry-policy.ts";
import { RetryScheduler } from "./retries.ts";
import { lifecycleSettings } from "./settings.ts";
import { announceOnly } from "./run-ends.ts";

/** What the lifecycle needs of the agent runtime (src/agents/runtime.ts): its stopper and its two ways to start a run. */
export interface LifecycleDeps extends AgentDeps {
  stopper: Stopper;
  /** A process of the agent is watched now. */
  isLive(agentId: string): boolean;
  /** A new session of the agent's provider session, told `prompt`. */
  resume(rec: AgentRecord, prompt: string, onLaunch: AgentPatch): Promise<Agent>;
  /** The agent's task from the start, in a fresh provider session. */
  respawn(rec: AgentRecord, onLaunch: AgentPatch): Promise<Agent>;
  /** Writes agents' last-activity times that wait in memory (the session watcher's). */
  flushActivity(): void;
  /** Counts a launch as under way (a stopping daemon waits for it). */
  tracked<T>(launch: Promise<T>): Promise<T>;
  troupe(): string;
}

/**
 * What happens to runs beyond spawning and ending them: pending retries started at their
 * deadline, runs stopped for a limit (timeout, budget), failures reported after a run ended, and
 * failover between accounts (`AgentDeps.accounts`) in the decision at a run's end.
 */
export class Lifecycle {
  private readonly retries: RetryScheduler;
  private readonly limits: RunLimits;

  constructor(private readonly d: LifecycleDeps) {
    const onError = (err: unknown) => d.log.error("lifecycle deadline", err);
    this.retries = new RetryScheduler(d.store, (id) => this.runRetry(id), onError);
    this.limits = new RunLimits({
      store: d.store,
      settings: () => lifecycleSettings(d.ws.stateDir),
      waitsOnPurpose: (id) => d.waitsOnPurpose?.(id) ?? false,
      flushActivity: () => d.flushActivity(),
      stop: (id, why) => this.stopFor(id, why),
      onError,
    });
  }

  watcherHooks(): WatcherHooks {
    return {
      followed: (session) => this.limits.followed(session),
      costChanged: (id) => this.checkBudget(id),
      retryScheduled: () => this.retries.schedule(),
      failover: () => this.failover,
    };
  }

  /** Where failover between accounts plugs in: the accounts' (none: a spent quota is not retried). */
  private get failover(): FailoverHook | null {
    return this.d.accounts?.failover ?? null;
  }

  /** Retries an earlier daemon left pending (and those of runs found ended at start), and limits. */
  start(): void {
    this.retries.schedule();
    this.limits.schedule();
  }

  shutdown(): void {
    this.retries.shutdown();
    this.limits.shutdown();
  }

  /** Fails an ended run through the policy (see RetryRun.failRunWith, src/agents/use-cases/retry.ts). */
  failRun(rec: AgentRecord, failure: FailureClass, evidence: string): Agent {
    const { store, bus, ws } = this.d;
    if (isLive(rec.status)) throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; a run is failed once it has ended`);
    const d: Diagnosis = { failure, evidence };
    const patch = failurePatch(rec, d, hasSession(rec), lifecycleSettings(ws.stateDir).retry, Math.random(), this.failover);
    const updated = store.agents.update(rec.id, { ...patch, error: evidence });
    const agent = toAgent(updated);
    bus.publish({ type: "agent:updated", agent });
    if (updated.retryAt !== null) this.retries.schedule();
    else (this.d.ends ?? announceOnly(bus)).ended({ agent, session: rec.session, exitCode: rec.exitCode });
    return agent;
  }

  /**
   * Starts the pending retry of an agent whose `retry_at` came: a `resume_once` class resumes its
   * session with what is missing; a transient one runs again (the session resumed when the run
   * got going, its task from the start when it did not). The deadline is cleared first (the
   * scheduler's timer must not find it again); one process per agent: a leftover of the failed
   * run is stopped first and the retry put off until it is gone.
   */
  private runRetry(id: string): void {
    const { store, bus, log } = this.d;
    const rec = store.agents.get(id);
    if (!rec || rec.retryAt === null) return;
    // `blocked`: every account was spent; its deadline is the first reset
    if ((rec.status !== "starting" && rec.status !== "blocked") || !rec.failure) {
      store.agents.update(id, { retryAt: null });
      return;
    }
    if (this.d.isLive(id) || !nothingFound(this.d.stopper.find(id))) {
      this.d.stopper.terminate(id, rec.session, () => store.agents.update(id, { retryAt: Date.now() + KILL_GRACE_MS + 1_000 }));
      log.warn(`${rec.name}: the failed run left processes; retry put off until they are gone`);
      this.retries.schedule();
      return;
    }
    store.agents.update(id, { retryAt: null });
    const failure = rec.failure;
    // a recovery resumes the session (the policy allows one only then); a transient failure
    // resumes a run that got going (it spent something, or it was a resume itself) and runs one
    // that did not from its task again: a session that failed on its first request may hold nothing
    const gotGoing = (rec.costUsd ?? 0) > 0 || rec.session > 1;
    // the failure stays (what this attempt retries); its error goes with the new run
    const onLaunch: AgentPatch = { questions: null, result: null, error: null, exitCode: null, attempt: rec.attempt + 1 };
    const resume = hasSession(rec) && (POLICY[failure.class] === "resume_once" || gotGoing);
    const launch = resume ? this.d.resume(rec, recoveryPrompt(failure, this.d.troupe()), onLaunch) : this.d.respawn(rec, onLaunch);
    this.d.tracked(launch)
      .then((a) => log.info(`${rec.name}: attempt ${a.attempt} started after ${failure.class}`))
      .catch((err: unknown) => {
        if (this.blockAgain(id, err)) return;
        log.warn(`${rec.name}: retry after ${failure.class} could not start`, err);
        const failed = store.agents.update(id, { status: "failed", retryAt: null, error: `retry could not start: ${errorMessage(err)}` });
        bus.publish({ type: "agent:updated", agent: toAgent(failed) });
      });
  }

  /**
   * A retry that found every account spent again (a reset came later than announced, or another
   * daemon took the account back) goes back to `blocked` until the next reset instead of failing.
   */
  private blockAgain(id: string, err: unknown): boolean {
    const { store, bus, log } = this.d;
    const rec = store.agents.get(id);
    if (!(err instanceof TroupeError) || err.code !== "accounts_exhausted" || !rec) return false;
    // when an agent whose accounts are all spent may run again (the first reset); null: no accounts
    const until = this.d.accounts?.earliestReset(rec.provider) ?? null;
    if (until === null) return false;
    const blocked = store.agents.update(id, { status: "blocked", retryAt: Math.max(until, Date.now() + 1_000) });
    log.info(`${rec.name}: every ${rec.provider} account is still spent; blocked until ${new Date(blocked.retryAt!).toISOString()}`);
    bus.publish({ type: "agent:updated", agent: toAgent(blocked) });
    this.retries.schedule();
    return true;
  }

  /**
   * A blocked agent of `provider` runs again now (an account was added): its retry comes due at
   * once, and takes the new account if it is the one available.
   */
  wakeBlocked(provider: string): number {
    const { store, log } = this.d;
    const now = Date.now();
    const woken = store.agents.list().filter((a) => a.status === "blocked" && a.provider === provider && a.retryAt !== null && a.retryAt > now);
    for (const rec of woken) {
      store.agents.update(rec.id, { retryAt: now });
      log.info(`${rec.name}: an ${provider} account is available; retrying now`);
    }
    if (woken.length) this.retries.schedule();
    return woken.length;
  }

  /** Stops a run for a limit (timeout, budget): the failure is recorded with the stop, the run's end applies it. */
  private stopFor(id: string, why: Diagnosis): void {
    const rec = this.d.store.agents.get(id);
    if (!rec || !isLive(rec.status)) return;
    if (rec.failure?.attempt === rec.attempt && rec.failure.class === why.failure) return;
    this.d.log.info(`${rec.name}: stopped (${why.failure}: ${why.evidence})`);
    let updated = rec;
    const failure = { class: why.failure, evidence: why.evidence, attempt: rec.attempt };
    const alive = this.d.stopper.terminate(id, rec.session, () => {
      updated = this.d.store.agents.update(id, { failure });
    });
    if (!alive) updated = this.d.store.agents.update(id, { status: "failed", failure, error: `${why.failure}: ${why.evidence}` });
    this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
  }

  /** Past its budget (by the cost its provider reports) an agent is stopped and fails with `budget`. */
  private checkBudget(id: string): void {
    const rec = this.d.store.agents.get(id);
    if (!rec || rec.budgetUsd === null || rec.costUsd === null || rec.costUsd < rec.budgetUsd) return;
    this.stopFor(id, { failure: "budget", evidence: `spent $${rec.costUsd.toFixed(2)} of a $${rec.budgetUsd.toFixed(2)} budget` });
  }
}
