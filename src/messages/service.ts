import { TroupeError } from "../errors.ts";
import { USER } from "../protocol/conversation.ts";
import type { Message } from "../protocol/message.ts";
import type { SendRequestSchema } from "../protocol/api-messages.ts";
import type { z } from "zod";
import type { Store } from "../store/index.ts";
import type { AgentRecord } from "../store/agents.ts";
import { messageSeq, type NewMessage } from "../store/messages.ts";
import type { SessionInput } from "../store/session-inputs.ts";
import type { BusEvent, EventBus } from "../events/bus.ts";
import type { Caller } from "../agents/caller.ts";
import type { SessionMail } from "../agents/deps.ts";
import { messagesPrompt } from "../prompts/messages.ts";

export type SendOptions = z.output<typeof SendRequestSchema>;

/** The longest one inbox request is held open, as for conversations; clients ask again. */
const MAX_WAIT_MS = 60_000;
/** Message text a session's prompt carries at most (a provider's prompt argument holds 64 KiB). */
export const PROMPT_BUDGET = 32 * 1024;
/** Messages one inbox read returns at most; the reader asks again after the last seq. */
const PAGE = 1000;
/** `all` reaches the agents that are running or idle (an attached one gets it after the person), not the stopped or failed. */
const REACHED_BY_ALL = new Set(["starting", "running", "waiting", "done", "attached"]);

const me = (caller: Caller) => (caller.kind === "agent" ? caller.agent.id : USER);

/**
 * Messages between agents and the person. A message is queued, then delivered exactly once:
 * through its addressee's inbox, or at the head of its next session's prompt (this service is the
 * agent runtime's `SessionMail`). Waking a `done` agent for a message is `DeliveryFollower`'s
 * business (src/messages/delivery.ts).
 */
export class MessageService implements SessionMail {
  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly troupe: () => string,
    /** Whether a line its session holds unread may still be the agent's inbox's (LiveInputs.takeBack). */
    private readonly takeBack: (agentId: string, session: number, seq: number) => boolean = () => true,
  ) {}

  /**
   * One message per addressee, signed with the caller's identity. `mayWake(target)`: whether the
   * sender may resume that agent (then a `done` addressee is woken for it); `all` never wakes.
   */
  send(caller: Caller, req: SendOptions, mayWake: (target: AgentRecord) => boolean): Message[] {
    const from = caller.kind === "agent" ? { fromId: caller.agent.id, fromName: caller.agent.name } : { fromId: USER, fromName: USER };
    const to = (t: { id: string; name: string }, wake: boolean): NewMessage => ({ ...from, toId: t.id, toName: t.name, text: req.text, wake });
    let rows: NewMessage[];
    if (req.to === USER) rows = [to({ id: USER, name: USER }, false)];
    else if (req.to === "all") rows = this.store.agents.list().filter((a) => a.id !== from.fromId && REACHED_BY_ALL.has(a.status)).map((a) => to(a, false));
    else if (req.to === "supervisor") {
      if (caller.kind === "user") throw new TroupeError("bad_request", "the person has no supervisor: send to an agent, --user or --all");
      const parent = caller.agent.parentId ? this.store.agents.get(caller.agent.parentId) : null;
      // an agent the person started reports to the person
      rows = [parent ? to(parent, mayWake(parent)) : to({ id: USER, name: USER }, false)];
    } else {
      const target = this.store.agents.find(req.to);
      if (!target) throw new TroupeError("agent_not_found", `no agent '${req.to}'`);
      if (target.id === from.fromId) throw new TroupeError("bad_request", "an agent cannot send a message to itself");
      rows = [to(target, mayWake(target))];
    }
    const sent = this.store.messages.insertMany(rows);
    for (const message of sent) this.bus.publish({ type: "message:created", message });
    return sent;
  }

  /**
   * The caller's messages, oldest first: after `after` (any status), else those still queued;
   * those queued are delivered now. With `waitMs`, held until at least one comes.
   */
  async inbox(caller: Caller, q: { after?: number; waitMs?: number }, signal: AbortSignal): Promise<Message[]> {
    const id = me(caller);
    const after = q.after ?? null;
    const deadline = Date.now() + Math.min(q.waitMs ?? 0, MAX_WAIT_MS);
    const session = caller.kind === "agent" ? caller.agent.session : null;
    for (;;) {
      // what its running session holds unread is the inbox's too (see takeHeldMessages): neither waits for the other
      const held = session === null ? { inputs: [], messages: [] } : this.ownHeld(id, session);
      const { page, delivered } = this.store.messages.read(id, after, PAGE);
      const all = withHeld(page, after === null ? held.messages : []);
      if (all.length || held.inputs.length) {
        if (signal.aborted) {
          // the reader left before the response: what it claimed is queued again, what its session held stays its session's
          this.store.messages.requeue(delivered.map((m) => m.seq));
          this.store.sessionInputs.untake(held.inputs.map((i) => i.seq));
          return [];
        }
        for (const message of delivered) this.bus.publish({ type: "message:updated", message });
        if (all.length) return all;
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) return [];
      // nothing can be stored between the read above and this subscription (both synchronous)
      await this.bus.waitFor((p) => (isNewFor(p.event, id) ? true : null), left, signal);
    }
  }

  /** The messages its session holds unread that are still the inbox's to take (the rest stay the session's). */
  private ownHeld(id: string, session: number): { inputs: SessionInput[]; messages: Message[] } {
    const held = this.store.sessionInputs.takeHeldMessages(id, session);
    const keep = held.inputs.map((i) => this.takeBack(id, session, i.seq));
    const back = held.inputs.filter((_, i) => !keep[i]).map((i) => i.seq);
    if (back.length) this.store.sessionInputs.untake(back);
    return { inputs: held.inputs.filter((_, i) => keep[i]), messages: held.messages.filter((_, i) => keep[i]) };
  }

  /** The person's messages not yet read (the dashboard's snapshot): nothing is delivered by looking. */
  unread(): Message[] {
    return this.store.messages.unread(USER, PAGE);
  }

  /** A message to the person, seen in the dashboard. */
  markRead(id: string): Message {
    const seq = messageSeq(id);
    const found = seq === null ? null : this.store.messages.get(seq);
    if (!found || seq === null) throw new TroupeError("not_found", `no message '${id}'`);
    if (found.toId !== USER) throw new TroupeError("bad_request", `${id} is addressed to ${found.toName}, not the person`);
    if (found.status === "read") return found;
    const read = this.store.messages.markRead(seq, USER)!;
    this.bus.publish({ type: "message:updated", message: read });
    return read;
  }

  /** SessionMail: the agent's oldest queued messages, delivered to `session` (see src/agents/deps.ts). */
  claim(agentId: string, session: number): { text: string; release(): void } | null {
    const { messages, left } = this.store.messages.claimForSession(agentId, session, PROMPT_BUDGET);
    if (!messages.length && !left) return null;
    for (const message of messages) this.bus.publish({ type: "message:updated", message });
    return {
      text: messagesPrompt(this.troupe(), messages, left),
      release: () => this.publishAll(this.store.messages.requeue(messages.map((m) => m.seq))),
    };
  }

  /** Deliveries to sessions of `agentId` (every agent when null) up to `upTo` that never ran: queued again. */
  requeueUnstarted(agentId: string | null, upTo?: number): void {
    this.publishAll(this.store.messages.requeueUnstarted(agentId, upTo));
  }

  private publishAll(msgs: Message[]): void {
    for (const message of msgs) this.bus.publish({ type: "message:updated", message });
  }
}

/** An inbox page with the messages the session held merged in, by seq (a page read with `after` has them already). */
function withHeld(page: Message[], held: Message[]): Message[] {
  if (!held.length) return page;
  const seen = new Set(page.map((m) => m.seq));
  return [...page, ...held.filter((m) => !seen.has(m.seq))].sort((a, b) => a.seq - b.seq);
}

function isNewFor(e: BusEvent, id: string): boolean {
  if (e.type === "message:created") return e.message.toId === id;
  // queued again (a session that never started, a reader that left)
  return e.type === "message:updated" && e.message.toId === id && e.message.status === "queued";
}
