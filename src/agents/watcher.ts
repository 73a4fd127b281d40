import type { ChildProcess } from "node:child_process";
import type { OutputChunk } from "../protocol/output.ts";
import type { AgentPatch, SessionRecord } from "../store/index.ts";
import { toAgent } from "../store/agents.ts";
import { parserFor } from "../output/render.ts";
import { getProvider } from "../../providers/index.ts";
import { isProcessAlive } from "../process-info.ts";
import type { AgentDeps } from "./deps.ts";
import { Tailer } from "./tailer.ts";
import { Supervisor, readExitFile } from "./supervisor.ts";
import { sessionSignal } from "./session-signal.ts";
import { diagnose } from "./failure.ts";
import { endPatch, hasSession, type FailoverHook } from "./lifecycle/end.ts";
import { lifecycleSettings } from "./lifecycle/settings.ts";
import { outputMetadata } from "./metadata.ts";
import { outputCap } from "../workspace-config.ts";

/** How often a chunk without news may still touch an agent's last-activity time. */
const ACTIVITY_EVERY_MS = 2_000;
/** Output chunks read back to tell why a run failed. */
const DIAGNOSE_CHUNKS = 16;

/** What the lifecycle wants to hear from the watcher. */
export interface WatcherHooks {
  /** A session started being watched (its limits start). */
  followed(session: SessionRecord): void;
  /** The agent's reported cost grew (its budget is checked). */
  costChanged(agentId: string): void;
  /** A run's end scheduled a retry. */
  retryScheduled(): void;
  /** Failover between accounts on `usage_limit`; null: not retried. */
  failover(): FailoverHook | null;
}

/**
 * Watches running sessions: stores their output as it comes (through the tailer) and
 * completes each exactly once when its process ends (through the supervisor), from the
 * signal file, then publishes `agent:ended`. Also picks up, at start, whatever an earlier
 * daemon left running.
 */
export class SessionWatcher {
  private readonly tailer: Tailer;
  private readonly supervisor: Supervisor;
  private readonly lastActivity = new Map<string, number>();
  /** Each agent's provider (it never changes), so a chunk that says nothing reads nothing from the store. */
  private readonly providers = new Map<string, string>();
  /** Called when an attached session's process ended, before its last output is stored (see attach.ts). */
  private attachedEnd: ((s: SessionRecord) => void) | null = null;

  constructor(
    private readonly d: AgentDeps,
    private readonly hooks: WatcherHooks,
  ) {
    this.tailer = new Tailer(d.store.chunks, (c) => this.onChunk(c), d.log, {
      capBytes: () => outputCap(d.ws.stateDir),
      wal: d.store.checkpoints,
    });
    this.supervisor = new Supervisor((id, session, code) => this.onExit(id, session, code));
  }

  /** Follows live sessions an earlier daemon left open; completes the dead ones, once. */
  start(): void {
    this.tailer.start();
    for (const s of this.d.store.sessions.open()) {
      if (s.pid !== null && isProcessAlive(s.pid, s.pidStart)) {
        this.follow(s, s.pid, s.pidStart, null);
        this.d.log.info(`adopted ${s.agentId} session ${s.session} (pid ${s.pid})`);
      } else {
        this.onExit(s.agentId, s.session, readExitFile(s.exitPath));
      }
    }
  }

  async stop(): Promise<void> {
    this.supervisor.stop();
    await this.tailer.stop();
  }

  /** Starts tailing a session's output and watching its process. */
  follow(s: SessionRecord, pid: number, pidStart: string | null, child: ChildProcess | null): void {
    this.tailer.add({ ...s, pid });
    this.supervisor.track({ agentId: s.agentId, session: s.session, pid, pidStart, exitPath: s.exitPath, child });
    this.hooks.followed(s);
  }

  setAttachedEnd(fn: (s: SessionRecord) => void): void {
    this.attachedEnd = fn;
  }

  /** An agent is being removed: its files are read no more (see Tailer.forgetAgent). */
  forgetOutput(agentId: string): void {
    this.tailer.forgetAgent(agentId);
    this.providers.delete(agentId);
  }

  /** An agent's output was removed: give the space back (see Tailer.releaseSpace). */
  releaseSpace(): void {
    this.tailer.releaseSpace();
  }

  isLive(agentId: string): boolean {
    return this.supervisor.isLive(agentId);
  }

  private onChunk(chunk: OutputChunk): void {
    const { store, bus } = this.d;
    bus.publish({ type: "agent:output", chunk });
    const provider = this.providerOf(chunk.agentId);
    if (provider === null) return;
    const patch: AgentPatch = outputMetadata(parserFor(provider), chunk, () => store.agents.outputContext(chunk.agentId));
    const now = Date.now();
    if (Object.keys(patch).length) {
      const updated = store.agents.update(chunk.agentId, { ...patch, lastActivityAt: now });
      bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      this.lastActivity.set(chunk.agentId, now);
      if (patch.costUsd !== undefined) this.hooks.costChanged(chunk.agentId);
    } else if (now - (this.lastActivity.get(chunk.agentId) ?? 0) > ACTIVITY_EVERY_MS) {
      // activity alone is not worth an event; the next update carries it
      store.agents.touch(chunk.agentId, now);
      this.lastActivity.set(chunk.agentId, now);
    }
  }

  private providerOf(agentId: string): string | null {
    const known = this.providers.get(agentId);
    if (known !== undefined) return known;
    const provider = this.d.store.agents.outputContext(agentId)?.provider ?? null;
    if (provider !== null) this.providers.set(agentId, provider);
    return provider;
  }

  /** A session's process ended: its output is stored, then the session is completed once. */
  onExit(agentId: string, session: number, exitCode: number | null): void {
    const sess = this.d.store.sessions.get(agentId, session);
    if (!sess) return;
    // an adopted wrapper killed by a stop leaves no exit file and no status: the stop's signal killed it
    if (exitCode === null && sess.stopSignal !== null) exitCode = 128 + sess.stopSignal;
    const rec = this.d.store.agents.get(agentId);
    if (rec?.status === "attached" && rec.session === session && sess.endedAt === null) {
      try {
        this.attachedEnd?.(sess);
      } catch (err) {
        this.d.log.warn(`${agentId} session ${session}: keeping the CLI's transcript failed`, err);
      }
    }
    // the rest of its output is stored first, in passes that let requests through
    this.tailer
      .finish(sess)
      .then(() => this.complete(agentId, session, exitCode))
      .catch((err: unknown) => this.d.log.error(`completing ${agentId} session ${session} failed`, err));
  }

  private complete(agentId: string, session: number, exitCode: number | null): void {
    const { store, bus, log } = this.d;
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
      return store.agents.update(agentId, endPatch(rec, { read, exitCode, diagnosis, pending }, hasSession(rec), settings, Math.random(), this.hooks.failover()));
    })();
    if (!updated) return;
    const agent = toAgent(updated);
    if (rec.status === "attached" && updated.status !== "attached") {
      log.info(`${rec.name}: interactive session ${session} ended (exit ${exitCode}); back to ${updated.status}`);
      // the detach first: followers (the notifier) tell the status it returns to from news
      bus.publish({ type: "agent:detached", agent, session });
      bus.publish({ type: "agent:updated", agent });
      return;
    }
    if (updated.retryAt !== null) {
      log.info(`${rec.name} session ${session} failed (${updated.failure?.class}); attempt ${updated.attempt + 1} at ${new Date(updated.retryAt).toISOString()}`);
      bus.publish({ type: "agent:updated", agent });
      // not ended: the next attempt follows (agent:ended is for runs that are over)
      this.hooks.retryScheduled();
      return;
    }
    log.info(`${rec.name} session ${session} ended (exit ${exitCode}): ${updated.status}${updated.failure ? ` (${updated.failure.class})` : ""}`);
    bus.publish({ type: "agent:updated", agent });
    bus.publish({ type: "agent:ended", agent, session, exitCode });
  }
}
