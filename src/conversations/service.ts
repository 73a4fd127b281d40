import { TroupeError } from "../errors.ts";
import { USER, type Conversation } from "../protocol/entities.ts";
import type { AskRequestSchema } from "../protocol/api.ts";
import type { z } from "zod";
import type { Store } from "../store/index.ts";
import type { EventBus } from "../events/bus.ts";
import { newId } from "../agents/tokens.ts";
import type { Caller } from "../agents/caller.ts";
import type { AgentRecord } from "../store/agents.ts";

export type AskOptions = z.output<typeof AskRequestSchema>;

/** The longest a single request may be held open; clients wait longer by asking again. */
export const MAX_WAIT_MS = 60_000;

const isOpen = (c: Conversation) => c.status === "pending" || c.status === "delivered";

/**
 * Questions between agents and the person: asked, handed out once, answered once, or expired.
 * It knows agents only through the store and the bus: waking an idle agent for a question is
 * `AgentFollower`'s business (src/conversations/follow-agents.ts).
 */
export class ConversationService {
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the timer fires; asks with a later deadline need not touch it (no store scan per ask). */
  private expiryAt: number | null = null;
  /** Agents in a `listen` right now, with how many (an agent's own children may listen too). */
  private readonly listening = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    /** Whether a line its session holds unread may still be the agent's listen's (LiveInputs.takeBack). */
    private readonly takeBack: (agentId: string, session: number, seq: number) => boolean = () => true,
  ) {}

  start(): void {
    this.expire();
  }

  shutdown(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
  }

  ask(caller: Caller, req: AskOptions): Conversation {
    let toId: string;
    let toName: string;
    let taskId: string | null = null;
    let phaseId: string | null = null;
    if (req.user) {
      toId = USER;
      toName = USER;
    } else if (req.to) {
      const target = this.store.agents.find(req.to);
      if (!target) throw new TroupeError("agent_not_found", `no agent '${req.to}'`);
      if (caller.kind === "agent" && target.id === caller.agent.id) throw new TroupeError("bad_request", "an agent cannot ask itself");
      if (target.status === "stopped") throw new TroupeError("invalid_state", `${target.name} is stopped; it cannot answer`);
      toId = target.id;
      toName = target.name;
    } else {
      const target = req.task ? this.taskAgent(req.task) : this.phaseAgent(req.phase!);
      toId = target.id;
      toName = target.name;
      taskId = req.task ? target.taskId : null;
      phaseId = req.task ? null : target.phaseId;
    }
    const conv = this.store.conversations.insert({
      id: newId("cv"),
      fromId: caller.kind === "agent" ? caller.agent.id : USER,
      fromName: caller.kind === "agent" ? caller.agent.name : USER,
      toId,
      toName,
      question: req.question,
      taskId,
      phaseId,
      expiresAt: req.timeoutMs ? Date.now() + req.timeoutMs : null,
    });
    this.bus.publish({ type: "conversation:created", conversation: conv });
    if (conv.expiresAt !== null && (this.expiryAt === null || conv.expiresAt < this.expiryAt)) this.armExpiry(conv.expiresAt);
    return conv;
  }

  /** The agent working a task (its id or `<initiative>/<slug>`): the one the task names. */
  private taskAgent(ref: string): AgentRecord {
    const task = this.store.tasks.find(ref);
    if (!task) throw new TroupeError("not_found", `no task '${ref}'`);
    const agent = task.agentId ? this.store.agents.get(task.agentId) : null;
    if (!agent || agent.status === "stopped") throw new TroupeError("no_agent", `no agent works task ${task.slug} now`);
    return { ...agent, taskId: task.id };
  }

  /** A phase's agent: the newest detail agent of it still able to answer. */
  private phaseAgent(ref: string): AgentRecord {
    const phase = this.store.phases.find(ref);
    if (!phase) throw new TroupeError("not_found", `no phase '${ref}'`);
    const agent = this.store.agents
      .list()
      .filter((a) => a.phaseId === phase.id && a.mode === "detail" && a.status !== "stopped")
      .at(-1);
    if (!agent) throw new TroupeError("no_agent", `no detail agent works on phase ${phase.slug} now`);
    return { ...agent, phaseId: phase.id };
  }

  list(q: { pending?: boolean } = {}): Conversation[] {
    return this.store.conversations.list(q);
  }

  get(id: string): Conversation {
    const c = this.store.conversations.get(id);
    if (!c) throw new TroupeError("conversation_not_found", `no conversation '${id}'`);
    return c;
  }

  /** The conversation once it is answered or expired, or as it is when `waitMs` runs out. */
  async wait(id: string, waitMs: number, signal: AbortSignal): Promise<Conversation> {
    const c = this.get(id);
    if (!isOpen(c) || waitMs <= 0) return c;
    const done = await this.bus.waitFor(
      (p) => (p.event.type === "conversation:updated" && p.event.conversation.id === id && !isOpen(p.event.conversation) ? p.event.conversation : null),
      Math.min(waitMs, MAX_WAIT_MS),
      signal,
    );
    return done ?? this.get(id);
  }

  /** Hands the caller its oldest pending conversation, waiting for one up to `waitMs`. */
  async listen(caller: Caller, waitMs: number, signal: AbortSignal): Promise<Conversation | null> {
    const me = caller.kind === "agent" ? caller.agent.id : USER;
    this.listening.set(me, (this.listening.get(me) ?? 0) + 1);
    try {
      return await this.listenFor(me, caller.kind === "agent" ? caller.agent.session : null, waitMs, signal);
    } finally {
      const n = (this.listening.get(me) ?? 1) - 1;
      if (n > 0) this.listening.set(me, n);
      else this.listening.delete(me);
    }
  }

  /** Whether the agent is in a `listen` now: a question is then its listen's (src/live/ writes none into its session). */
  isListening(agentId: string): boolean {
    return this.listening.has(agentId);
  }

  /**
   * Whether the agent waits on purpose: in a `listen`, or on an answer to a question it asked.
   * Its inactivity clock stops meanwhile (src/agents/lifecycle/limits.ts).
   */
  waitsOnPurpose(agentId: string): boolean {
    return this.listening.has(agentId) || this.store.conversations.openFrom(agentId);
  }

  private async listenFor(me: string, session: number | null, waitMs: number, signal: AbortSignal): Promise<Conversation | null> {
    const deadline = Date.now() + Math.min(waitMs, MAX_WAIT_MS);
    for (;;) {
      // what its running session holds unread first (it is older), so neither waits for the other
      let held = session === null ? null : this.store.sessionInputs.takeHeldQuestion(me, session);
      if (held && !this.takeBack(me, session!, held.input.seq)) {
        // its session's reader took the line first: the question is its session's
        this.store.sessionInputs.untake([held.input.seq]);
        held = null;
      }
      if (held) {
        if (signal.aborted) {
          this.store.sessionInputs.untake([held.input.seq]);
          return null;
        }
        return held.conversation;
      }
      // an agent holds what it claims for as long as its session lives (see releaseLeases)
      const claimed = this.store.conversations.claimNext(me, session);
      if (claimed) {
        if (signal.aborted) {
          this.store.conversations.unclaim(claimed.id);
          return null;
        }
        this.bus.publish({ type: "conversation:updated", conversation: claimed });
        return claimed;
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return null;
      await this.bus.waitFor((p) => (p.event.type === "conversation:created" && p.event.conversation.toId === me ? true : null), left, signal);
    }
  }

  answer(caller: Caller, id: string, answer: string): Conversation {
    // who may answer is the policy's (src/services/policy.ts); here the caller only signs the answer
    const by = caller.kind === "agent" ? caller.agent.name : USER;
    // the answer is written if the question is open; only a refused one is read again, to say why
    const answered = this.store.conversations.answer(id, answer, by);
    if (!answered) {
      const c = this.get(id);
      // the same answer by the same caller again: a client that lost the reply (a daemon killed) sends it again
      if (c.status === "answered" && c.answeredBy === by && c.answer === answer) return c;
      if (c.status === "expired") throw new TroupeError("conflict", `conversation ${id} expired; the asker is no longer waiting`);
      throw new TroupeError("already_answered", `conversation ${id} was already answered${c.answeredBy ? ` by ${c.answeredBy}` : ""}`);
    }
    this.bus.publish({ type: "conversation:updated", conversation: answered });
    return answered;
  }

  /** Hands one pending conversation to its addressee as it is woken for it; null when it was not pending. */
  deliver(id: string): Conversation | null {
    const claimed = this.store.conversations.claim(id);
    if (claimed) this.bus.publish({ type: "conversation:updated", conversation: claimed });
    return claimed;
  }

  /**
   * A listener's session ended without answering what it claimed: those conversations are pending
   * again, to be handed out (or to wake the agent) once more.
   */
  releaseLeases(agentId: string, session: number): void {
    for (const c of this.store.conversations.releaseLeases(agentId, session)) this.bus.publish({ type: "conversation:updated", conversation: c });
  }

  /** A stopped or removed agent will not answer: whoever asked it stops waiting (exit 3). */
  expireTo(agentId: string): void {
    for (const c of this.store.conversations.expireTo(agentId)) this.bus.publish({ type: "conversation:updated", conversation: c });
  }

  private expire(): void {
    for (const c of this.store.conversations.expireDue()) this.bus.publish({ type: "conversation:updated", conversation: c });
    this.scheduleExpiry();
  }

  private scheduleExpiry(): void {
    const next = this.store.conversations.nextExpiry();
    if (next === null) {
      if (this.expiryTimer) clearTimeout(this.expiryTimer);
      this.expiryTimer = null;
      this.expiryAt = null;
      return;
    }
    this.armExpiry(next);
  }

  private armExpiry(at: number): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryAt = at;
    this.expiryTimer = setTimeout(() => this.expire(), Math.max(0, Math.min(at - Date.now(), 2 ** 31 - 1)));
  }
}
