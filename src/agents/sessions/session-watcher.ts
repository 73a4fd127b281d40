import type { ChildProcess } from "node:child_process";
import type { OutputChunk, UsageWindow } from "../../protocol/output.ts";
import type { SessionRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import { parserFor } from "../../output/render.ts";
import { isProcessAlive } from "../../process-info.ts";
import type { AgentDeps } from "../deps.ts";
import { Tailer } from "../output/tailer.ts";
import { ExitTracker, readExitFile } from "../processes/exit-tracker.ts";
import type { FailoverHook } from "../lifecycle/end-patch.ts";
import { SessionEnd } from "./session-end.ts";
import { outputNews, storedRunCost } from "../output/agent-metadata.ts";
import { outputCap } from "../../workspace-config.ts";
import { ActivityTimes } from "./activity-times.ts";

/** What the lifecycle wants to hear from the watcher. */
export interface WatcherHooks {
  /** A session started being watched (its limits start). */
  followed(session: SessionRecord): void;
  /** The agent's reported cost grew (its budget is checked). */
  costChanged(agentId: string): void;
  /** A run's end scheduled a retry. */
  retryScheduled(): void;
  /** Failover between accounts on `usage_limit` and `auth`; null: not retried. */
  failover(): FailoverHook | null;
}

/**
 * Watches running sessions: stores their output as it comes (through the tailer) and hands each
 * to its end (session-end.ts) exactly once when its process ends (through the exit tracker).
 * Also picks up, at start, whatever an earlier daemon left running.
 */
export class SessionWatcher {
  private readonly tailer: Tailer;
  private readonly exits: ExitTracker;
  private readonly ends: SessionEnd;
  /** Agents' last-activity times from their output, written together (see activity-times.ts). */
  private readonly activity: ActivityTimes;
  /** Each agent's latest session's cost so far, as its CLI last reported it (a run of many turns reports a running total). */
  private readonly runCosts = new Map<string, { session: number; cost: number }>();
  /** Each agent's provider (it never changes), so a chunk that says nothing reads nothing from the store. */
  private readonly providers = new Map<string, string>();

  constructor(
    private readonly d: AgentDeps,
    private readonly hooks: WatcherHooks,
  ) {
    this.tailer = new Tailer(d.store.chunks, (c) => this.onChunk(c), d.log, {
      capBytes: () => outputCap(d.ws.stateDir),
      wal: d.store.checkpoints,
    });
    this.activity = new ActivityTimes((times) => d.store.agents.touch(times), d.log);
    this.exits = new ExitTracker((id, session, code) => this.onExit(id, session, code));
    this.ends = new SessionEnd({
      ...d,
      storeRest: (s) => this.tailer.finish(s),
      retryScheduled: () => hooks.retryScheduled(),
      failover: () => hooks.failover(),
    });
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
    this.exits.stop();
    try {
      await this.tailer.stop();
    } finally {
      this.activity.stop(); // the waiting times are written even when the tailer's stop fails
    }
  }

  /** Writes the last-activity times that wait in memory (a reader is about to decide on them). */
  flushActivity(): void {
    this.activity.flush();
  }

  /** Starts tailing a session's output and watching its process. */
  follow(s: SessionRecord, pid: number, pidStart: string | null, child: ChildProcess | null): void {
    this.tailer.add({ ...s, pid });
    this.exits.track({ agentId: s.agentId, session: s.session, pid, pidStart, exitPath: s.exitPath, child });
    this.hooks.followed(s);
  }

  /** An agent is being removed: its files are read no more (see Tailer.forgetAgent). */
  forgetOutput(agentId: string): void {
    this.tailer.forgetAgent(agentId);
    this.activity.forget(agentId);
    this.providers.delete(agentId);
    this.runCosts.delete(agentId);
  }

  /** An agent's output was removed: give the space back (see Tailer.releaseSpace). */
  releaseSpace(): void {
    this.tailer.releaseSpace();
  }

  isLive(agentId: string): boolean {
    return this.exits.isLive(agentId);
  }

  private onChunk(chunk: OutputChunk): void {
    const { store, bus } = this.d;
    bus.publish({ type: "agent:output", chunk });
    const provider = this.providerOf(chunk.agentId);
    if (provider === null) return;
    const before = this.runCosts.get(chunk.agentId);
    const parse = parserFor(provider);
    // a run this daemon did not see begin (it was restarted): its last stored result, read at the next result
    const prior = before?.session === chunk.session ? before.cost : () => storedRunCost(store.chunks, parse, chunk);
    const { patch, input, runCost, usage } = outputNews(parse, chunk, () => store.agents.outputContext(chunk.agentId), prior);
    if (usage && this.d.accounts) this.recordUsage(chunk.agentId, usage);
    if (input.turnEnded || runCost > 0) this.runCosts.set(chunk.agentId, { session: chunk.session, cost: runCost });
    if (input.taken.length || input.turnEnded) this.d.input?.output(chunk.agentId, chunk.session, input);
    const now = Date.now();
    if (Object.keys(patch).length) {
      this.activity.forget(chunk.agentId);
      const updated = store.agents.update(chunk.agentId, { ...patch, lastActivityAt: now });
      bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      if (patch.costUsd !== undefined) this.hooks.costChanged(chunk.agentId);
    } else {
      // activity alone is not worth an event (the next update carries it), nor a commit of its own
      this.activity.note(chunk.agentId, now);
    }
  }

  /** The windows a run reported, for its account's forecast (a run on no account reports for nobody's). */
  private recordUsage(agentId: string, usage: UsageWindow[]): void {
    const accountId = this.d.store.agents.get(agentId)?.accountId ?? null;
    if (accountId === null) return;
    try {
      this.d.accounts!.usage(accountId, usage);
    } catch (err) {
      // a forecast is advice: an unreadable accounts file never stops the output from being stored
      this.d.log.error(`${agentId}: recording its account's usage`, err);
    }
  }

  private providerOf(agentId: string): string | null {
    const known = this.providers.get(agentId);
    if (known !== undefined) return known;
    const provider = this.d.store.agents.outputContext(agentId)?.provider ?? null;
    if (provider !== null) this.providers.set(agentId, provider);
    return provider;
  }

  /** A session's process ended (reported by the exit tracker, found dead at start, or told by a detach). */
  onExit(agentId: string, session: number, exitCode: number | null): void {
    this.ends.exited(agentId, session, exitCode);
  }
}
