import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { DetachedRun, EndedRun, RunEnds } from "../agents/lifecycle/run-ends.ts";
import type { Agent } from "../protocol/entities.ts";

/**
 * What follows an agent's end, in one place and in order.
 *
 * Before any of this, the agent runtime ends the session (src/agents/sessions/session-end.ts):
 * an attached session's transcript is kept, the rest of its output is stored, and in one
 * transaction the session is marked ended and the agent gets the lifecycle's decision: the
 * signal's outcome and, for a failure, retry, resume, `blocked` or `failed`, with failover between
 * accounts on a spent quota or a refused credential (`AccountPort.failover`, inside that
 * transaction, so the decision and the account it moves to are written together). Its
 * `agent:updated` is published. A run with a retry to come is not over: nothing below runs.
 *
 * A run that is over (`done`, `waiting`, `failed`, `stopped`; also one failed later through the
 * retry policy, `RetryRun.failRunWith`) then runs ENDED, in this order and why:
 * 1. mode outputs: a mode run's files are imported, or the run is failed when they cannot be
 *    used; first, so every later step sees the status the import leaves (a run failed by its
 *    outputs is woken for no question or message, and dispatch sees it failed);
 * 2. conversations: what the session claimed with `listen` and did not answer is handed out
 *    again, and a `done` agent with a question waiting is resumed for it;
 * 3. messages: deliveries to sessions that never started are queued again, and a `done` agent
 *    with queued messages is woken a turn of the event loop later (one resumed meanwhile for a
 *    question of step 2 takes its messages in that resume's prompt instead);
 * 4. permission requests: those of the ended session are cancelled;
 * 5. uncommitted work: a `done` agent's worktree is checked (in the background) and the agent
 *    resumed once to commit what it left, or flagged `uncommitted`; it finds the agent resumed
 *    by steps 2-3 and leaves it to its next end;
 * 6. worktree reaper: its timer is re-armed (this worktree's deadline may be the nearest);
 * 7. dispatch: a pass is due (a task's agent ended: merge it, start the next), a turn later,
 *    once everything above is in the store;
 * 8. announce: `agent:ended` on the bus, for observers that change nothing (the daemon's idle
 *    clock and WAL checkpoints; it never reaches clients).
 * An attached session's end (the person's interactive CLI exited) is not a run's end: nothing of
 * it is imported again. It runs DETACHED: announce first (the notifier learns the status the
 * agent returns to is no news before the `agent:updated` that follows), then a question or a
 * message that came meanwhile wakes a `done` agent, as at a run's end.
 *
 * A session that failed with a retry to come runs RETRYING: its permission requests are
 * cancelled (the next attempt is a new session, asking anew).
 *
 * Stopping and removing are sequences too, not bus listeners. STOPPED, when the person stops an
 * agent (it is `stopped` at once; its processes may still be going away, and their end runs
 * ENDED as any run's): the questions to it expire (it will not answer), and its session's
 * permission requests are cancelled. REMOVED, once its records are gone: the questions to it
 * expire, the messages to it are deleted, and `agent:removed` is announced (dashboards drop it,
 * dispatch looks again).
 *
 * A step that throws is logged and the later steps still run, as bus listeners did before this
 * list. Notifications (`notify.command`), the dashboard and SSE subscribers follow the bus
 * (`agent:updated`): observers, not steps. Each part only acts between its own start and
 * shutdown (src/services/create.ts).
 */

/** One step of what follows an end: its name (for the log) and what it does. */
interface EndStep<R> {
  name: string;
  run(r: R): void;
}

/** The services whose steps the sequence runs. */
export interface EndOfRunParts {
  modes: { runEnded(run: EndedRun): void };
  conversations: { runEnded(run: EndedRun): void; detached(run: DetachedRun): void; gone(agentId: string): void };
  messages: { runEnded(run: EndedRun): void; detached(run: DetachedRun): void; removed(agentId: string): void };
  permissions: { runEnded(run: EndedRun): void; sessionOver(agentId: string): void };
  uncommitted: { runEnded(run: EndedRun): void };
  reaper: { runEnded(): void };
  dispatch: { runEnded(): void };
  bus: EventBus;
}

/** After a run that is over (see above for why in this order). */
function endedSteps(p: EndOfRunParts): EndStep<EndedRun>[] {
  return [
    { name: "mode outputs", run: (r) => p.modes.runEnded(r) },
    { name: "conversations", run: (r) => p.conversations.runEnded(r) },
    { name: "messages", run: (r) => p.messages.runEnded(r) },
    { name: "permission requests", run: (r) => p.permissions.runEnded(r) },
    { name: "uncommitted work", run: (r) => p.uncommitted.runEnded(r) },
    { name: "worktree reaper", run: () => p.reaper.runEnded() },
    { name: "dispatch", run: () => p.dispatch.runEnded() },
    { name: "announce", run: (r) => p.bus.publish({ type: "agent:ended", ...r }) },
  ];
}

/** After the person's interactive session on an agent ended. */
function detachedSteps(p: EndOfRunParts): EndStep<DetachedRun>[] {
  return [
    { name: "announce", run: (r) => p.bus.publish({ type: "agent:detached", ...r }) },
    { name: "conversations", run: (r) => p.conversations.detached(r) },
    { name: "messages", run: (r) => p.messages.detached(r) },
  ];
}

/** After a session that failed with a retry to come. */
function retryingSteps(p: EndOfRunParts): EndStep<EndedRun>[] {
  return [{ name: "permission requests", run: (r) => p.permissions.sessionOver(r.agent.id) }];
}

/** After the person stopped an agent. */
function stoppedSteps(p: EndOfRunParts): EndStep<Agent>[] {
  return [
    { name: "conversations", run: (a) => p.conversations.gone(a.id) },
    { name: "permission requests", run: (a) => p.permissions.sessionOver(a.id) },
  ];
}

/** After an agent's records were removed. */
function removedSteps(p: EndOfRunParts): EndStep<string>[] {
  return [
    { name: "conversations", run: (id) => p.conversations.gone(id) },
    { name: "messages", run: (id) => p.messages.removed(id) },
    { name: "announce", run: (agentId) => p.bus.publish({ type: "agent:removed", agentId }) },
  ];
}

/** Runs `steps` in order; one that throws is logged (`after` says after what) and the next still runs. */
function runSteps<R>(steps: readonly EndStep<R>[], r: R, log: Logger, after: string): void {
  for (const step of steps) {
    try {
      step.run(r);
    } catch (err) {
      log.error(`after ${after}: ${step.name} failed`, err);
    }
  }
}

interface Sequences {
  ended: EndStep<EndedRun>[];
  detached: EndStep<DetachedRun>[];
  retrying: EndStep<EndedRun>[];
  stopped: EndStep<Agent>[];
  removed: EndStep<string>[];
}

/**
 * The sequence the agent runtime is given (`AgentDeps.ends`). Its parts are services built after
 * the agent runtime (they use its use cases), so they are read when the first end comes: a late-bound step
 * list, not a setter.
 */
export class EndOfRun implements RunEnds {
  private steps: Sequences | null = null;

  constructor(
    private readonly log: Logger,
    private readonly parts: () => EndOfRunParts,
  ) {}

  ended(run: EndedRun): void {
    runSteps(this.list().ended, run, this.log, `${run.agent.name}'s run ended (session ${run.session})`);
  }

  detached(run: DetachedRun): void {
    runSteps(this.list().detached, run, this.log, `${run.agent.name}'s interactive session ended (session ${run.session})`);
  }

  retrying(run: EndedRun): void {
    runSteps(this.list().retrying, run, this.log, `${run.agent.name}'s session ${run.session} failed, to be retried`);
  }

  stopped(agent: Agent): void {
    runSteps(this.list().stopped, agent, this.log, `${agent.name} was stopped`);
  }

  removed(agentId: string): void {
    runSteps(this.list().removed, agentId, this.log, `${agentId} was removed`);
  }

  private list(): Sequences {
    if (!this.steps) {
      const p = this.parts();
      this.steps = { ended: endedSteps(p), detached: detachedSteps(p), retrying: retryingSteps(p), stopped: stoppedSteps(p), removed: removedSteps(p) };
    }
    return this.steps;
  }
}
