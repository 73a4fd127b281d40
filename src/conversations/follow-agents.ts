import { USER, type Agent, type Conversation } from "../protocol/entities.ts";
import type { Store } from "../store/index.ts";
import type { EventBus, Published } from "../events/bus.ts";
import type { DetachedRun, EndedRun } from "../agents/lifecycle/run-ends.ts";
import type { Logger } from "../events/log.ts";
import { incomingQuestionPrompt } from "../prompts/agent.ts";
import type { ConversationService } from "./service.ts";

/** What conversations use of the agents: the resume use case (src/agents/use-cases/resume.ts). */
interface AgentResumer {
  canResume(ref: string): boolean;
  resumeWith(ref: string, prompt: string): Promise<Agent>;
  /** This troupe by absolute path, for the prompt. */
  troupeCommand(): string;
}

export interface FollowerDeps {
  store: Store;
  bus: EventBus;
  log: Logger;
  conversations: ConversationService;
  agents: AgentResumer;
}

/**
 * What conversations do as agents come and go:
 * - a question to a `done` agent resumes it with the question (at once when asked, or when
 *   the agent's session ends `done` with a question waiting); the conversation is delivered
 *   as it wakes, so an agent that ends without answering is not woken for it again;
 * - a conversation an agent claimed with `listen` goes back to pending when that session ends
 *   unanswered (a lease), and is delivered again;
 * - questions to a stopped or removed agent expire (it will not answer): a step of the stop and
 *   remove sequences.
 * A run's end and a detach come as steps of the end-of-run sequence (src/services/end-of-run.ts);
 * new questions, stops and removals from the bus.
 */
export class AgentFollower {
  private off: (() => void) | null = null;

  constructor(private readonly d: FollowerDeps) {}

  start(): void {
    this.off = this.d.bus.subscribe((p) => this.on(p));
  }

  shutdown(): void {
    this.off?.();
    this.off = null;
  }

  /** A run is over: what it claimed with `listen` in that session and did not answer is handed out again; a done agent is woken for a question. */
  runEnded(run: EndedRun): void {
    if (this.off === null) return;
    this.d.conversations.releaseLeases(run.agent.id, run.session);
    this.wakeIfDone(run.agent.id, run.agent.status);
  }

  /** A step of the stop and remove sequences: a stopped or removed agent will not answer, whoever asked it stops waiting. */
  gone(agentId: string): void {
    if (this.off !== null) this.d.conversations.expireTo(agentId);
  }

  /** The person's interactive session ended: a question asked meanwhile wakes it. */
  detached(run: DetachedRun): void {
    if (this.off !== null) this.wakeIfDone(run.agent.id, run.agent.status);
  }

  private on({ event: e }: Published): void {
    switch (e.type) {
      case "conversation:created":
        if (e.conversation.toId !== USER) this.wake(e.conversation.toId, e.conversation);
        return;
      default:
        return;
    }
  }

  /** A done agent with a pending question is woken for it. */
  private wakeIfDone(agentId: string, status: string): void {
    if (status !== "done") return;
    const next = this.d.store.conversations.list({ pending: true }).find((c) => c.toId === agentId && c.status === "pending");
    if (next) this.wake(agentId, next);
  }

  private wake(agentId: string, conv: Conversation): void {
    const { store, agents, conversations, log } = this.d;
    if (store.agents.get(agentId)?.status !== "done" || !agents.canResume(agentId)) return;
    if (!conversations.deliver(conv.id)) return;
    agents.resumeWith(agentId, incomingQuestionPrompt(agents.troupeCommand(), conv)).catch((err) => log.warn(`could not wake ${conv.toName} for ${conv.id}`, err));
  }
}
