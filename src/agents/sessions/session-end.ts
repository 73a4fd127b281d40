import type { SessionRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import { getProvider } from "../../../providers/index.ts";
import type { AgentDeps } from "../deps.ts";
import { sessionSignal } from "./session-signal.ts";
import { diagnose } from "../lifecycle/diagnose.ts";
import { endPatch, hasSession, type FailoverHook } from "../lifecycle/end-patch.ts";
import { announceOnly } from "../lifecycle/run-ends.ts";
import { lifecycleSettings } from "../lifecycle/settings.ts";
import { keepAttachedTranscript } from "./attach-transcript.ts";

/** Output chunks read back to tell why a run failed. */
const DIAGNOSE_CHUNKS = 16;

export interface SessionEndDeps extends AgentDeps {
  /** Stores the rest of the session's output (Tailer.finish). */
  storeRest(s: SessionRecord): Promise<void>;
  /** A run's end scheduled a retry. */
  retryScheduled(): void;
  /** Failover between accounts on `usage_limit` and `auth`; null: not retried. */
  failover(): FailoverHook | null;
}

/**
 * A session's process ended. In order:
 * 1. an attached session's words are kept from the CLI's transcript (its screen was the person's);
 * 2. the rest of its output is stored, in passes that let requests through;
 * 3. in one transaction: the session is marked ended, and the agent gets the lifecycle's decision:
 *    the signal file's outcome, and for a failure its class (from the provider's output) and what
 *    follows (a retry or a resume at `retryAt`, `blocked` on spent accounts, or `failed`), with
 *    failover between accounts on a spent quota or a refused credential;
 * 4. what follows: an attached session's end puts the agent back where it was (a detach); a
 *    scheduled retry is not an end; any other run is over, and the declared end-of-run sequence
 *    runs (`AgentDeps.ends`: src/services/end-of-run.ts in the daemon).
 * Each session is completed once: a second exit report finds it ended and does nothing.
 */
export class SessionEnd {
  constructor(private readonly d: SessionEndDeps) {}

  exited(agentId: string, session: number, exitCode: number | null): void {
    const sess = this.d.store.sessions.get(agentId, session);
    if (!sess) return;
    // an adopted wrapper killed by a stop leaves no exit file and no status: the stop's signal killed it
    if (exitCode === null && sess.stopSignal !== null) exitCode = 128 + sess.stopSignal;
    const rec = this.d.store.agents.get(agentId);
    if (rec?.status === "attached" && rec.session === session && sess.endedAt === null) {
      try {
        keepAttachedTranscript(this.d.store, this.d.log, sess);
      } catch (err) {
        this.d.log.warn(`${agentId} session ${session}: keeping the CLI's transcript failed`, err);
      }
    }
    // the rest of its output is stored first, in passes that let requests through
    this.d
      .storeRest(sess)
      .then(() => {
        // its output is all read (the echoes with it): what its CLI never took goes back before the end is decided
        this.d.input?.ended(agentId, session);
        this.complete(agentId, session, exitCode);
      })
      .catch((err: unknown) => this.d.log.error(`completing ${agentId} session ${session} failed`, err));
  }

  private complete(agentId: string, session: number, exitCode: number | null): void {
    const { store, bus, log } = this.d;
    const ends = this.d.ends ?? announceOnly(bus);
    const rec = store.agents.get(agentId);
    if (!rec) return;
    const updated = store.db.transaction(() => {
      const sess = store.sessions.get(agentId, session);
      if (!sess || !store.sessions.end(agentId, session, exitCode)) return null;
      if (rec.session !== session) return null;
      if (rec.status === "stopped") return store.agents.update(agentId, { exitCode, attachedFrom: null });
      // the person's interactive CLI: back to the status before it, whatever the signal file says
      // (a person rarely runs `troupe signal` by hand: no missing-signal rule)
      if (rec.status === "attached") return store.agents.update(agentId, { status: rec.attachedFrom ?? "stopped", attachedFrom: null, lastActivityAt: Date.now() });
      const read = sessionSignal(rec, sess);
      let diagnosis = null;
      if (read.kind !== "ok") {
        const provider = getProvider(rec.provider);
        const tail = store.chunks.list(agentId, { before: Number.MAX_SAFE_INTEGER, session, limit: DIAGNOSE_CHUNKS });
        diagnosis = provider ? diagnose(provider, tail) : null;
      }
      // a run troupe stopped for a limit (timeout, budget) carries that failure from the stop
      const stoppedByUs = store.sessions.get(agentId, session)?.stopSignal != null;
      const pending = stoppedByUs && rec.failure?.attempt === rec.attempt ? rec.failure : null;
      const settings = lifecycleSettings(this.d.ws.stateDir).retry;
      return store.agents.update(agentId, endPatch(rec, { read, exitCode, diagnosis, pending }, hasSession(rec), settings, Math.random(), this.d.failover()));
    })();
    if (!updated) return;
    const agent = toAgent(updated);
    if (rec.status === "attached" && updated.status !== "attached") {
      log.info(`${rec.name}: interactive session ${session} ended (exit ${exitCode}); back to ${updated.status}`);
      // the detach first: followers (the notifier) tell the status it returns to from news
      ends.detached({ agent, session });
      bus.publish({ type: "agent:updated", agent });
      return;
    }
    if (updated.retryAt !== null) {
      log.info(`${rec.name} session ${session} failed (${updated.failure?.class}); attempt ${updated.attempt + 1} at ${new Date(updated.retryAt).toISOString()}`);
      bus.publish({ type: "agent:updated", agent });
      // not ended: the next attempt follows (the end-of-run sequence is for runs that are over)
      ends.retrying({ agent, session, exitCode });
      this.d.retryScheduled();
      return;
    }
    log.info(`${rec.name} session ${session} ended (exit ${exitCode}): ${updated.status}${updated.failure ? ` (${updated.failure.class})` : ""}`);
    bus.publish({ type: "agent:updated", agent });
    ends.ended({ agent, session, exitCode });
  }
}
