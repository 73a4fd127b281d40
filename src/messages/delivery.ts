import { USER } from "../protocol/conversation.ts";
import type { Agent } from "../protocol/entities.ts";
import type { Store } from "../store/index.ts";
import type { EventBus, Published } from "../events/bus.ts";
import type { DetachedRun, EndedRun } from "../agents/lifecycle/run-ends.ts";
import type { Logger } from "../events/log.ts";
import { messageWakePrompt } from "../prompts/messages.ts";
import { PROMPT_BUDGET, type MessageService } from "./service.ts";

/** What messages use of the agents: the resume use case (src/agents/use-cases/resume.ts). */
interface MessageResumer {
  canResume(ref: string): boolean;
  resumeWith(ref: string, prompt: string): Promise<Agent>;
  /** This troupe by absolute path, for the prompt. */
  troupeCommand(): string;
}

export interface DeliveryDeps {
  store: Store;
  bus: EventBus;
  log: Logger;
  messages: MessageService;
  agents: MessageResumer;
}

/**
 * What messages do as agents come and go (a run's end and a detach as steps of the end-of-run
 * sequence, src/services/end-of-run.ts; the rest from the bus):
 * - a `done` agent with a queued message from a sender that may resume it is resumed, its
 *   messages first in the prompt (the agent runtime claims them as the session launches): when
 *   the message is sent, or when the agent's run ends `done` with one waiting;
 * - a delivery to a session that never started (the daemon died first, the launch failed) is
 *   queued again: at daemon start and whenever one of the agent's sessions ends;
 * - an attached agent (the person's interactive CLI) only queues them: its detach back to `done`
 *   delivers them as its run's end would;
 * - messages to a removed agent are dropped.
 * A `waiting`, `failed`, `stopped` or running agent is never resumed for a message.
 */
export class DeliveryFollower {
  private off: (() => void) | null = null;
  /** Wakes looked at once the current burst of events is over (1000 sends make one resume). */
  private readonly due = new Map<string, ReturnType<typeof setImmediate>>();

  constructor(private readonly d: DeliveryDeps) {}

  /** Start before the agent runtime starts (the ends it finds follow), sweep after. */
  start(): void {
    this.off = this.d.bus.subscribe((p) => this.on(p));
  }

  sweep(): void {
    this.d.messages.requeueUnstarted(null);
    for (const id of this.d.store.messages.wakeable()) this.schedule(id);
  }

  shutdown(): void {
    this.off?.();
    this.off = null;
    for (const t of this.due.values()) clearImmediate(t);
    this.due.clear();
  }

  /** A run is over: deliveries to its sessions that never started are queued again; a done agent is woken for its messages. */
  runEnded(run: EndedRun): void {
    if (this.off === null) return;
    // sessions after this one may be launching now: only this one and older are settled
    this.d.messages.requeueUnstarted(run.agent.id, run.session);
    if (run.agent.status === "done") this.schedule(run.agent.id);
  }

  /** A step of the remove sequence: messages to a removed agent are dropped. */
  removed(agentId: string): void {
    this.d.store.messages.deleteTo(agentId);
  }

  /** The person's interactive session ended: messages queued meanwhile wake it. */
  detached(run: DetachedRun): void {
    if (this.off !== null && run.agent.status === "done") this.schedule(run.agent.id);
  }

  private on({ event: e }: Published): void {
    switch (e.type) {
      case "message:created":
        if (e.message.toId !== USER) this.schedule(e.message.toId);
        return;
      default:
        return;
    }
  }

  private schedule(agentId: string): void {
    if (this.due.has(agentId)) return;
    this.due.set(
      agentId,
      setImmediate(() => {
        this.due.delete(agentId);
        this.wake(agentId);
      }),
    );
  }

  private wake(agentId: string): void {
    const { store, agents, log } = this.d;
    const rec = store.agents.get(agentId);
    if (rec?.status !== "done" || !store.messages.wakeReady(agentId, PROMPT_BUDGET) || !agents.canResume(agentId)) return;
    agents.resumeWith(agentId, messageWakePrompt(agents.troupeCommand())).catch((err) => log.warn(`could not resume ${rec.name} for its messages`, err));
  }
}
