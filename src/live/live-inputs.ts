import { randomUUID } from "node:crypto";
import { USER } from "../protocol/conversation.ts";
import type { Store } from "../store/index.ts";
import type { SessionInput } from "../store/session-inputs.ts";
import type { EventBus, Published } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { InputSeen, SessionInputPort } from "../agents/deps.ts";
import { inputDirFor } from "../agents/processes/launch-detached.ts";
import { closeStream, lineState, removeStream, streamOpen, wake, withdrawLine, writeLine } from "../agents/sessions/input-stream.ts";
import { getProvider } from "../../providers/index.ts";
import type { LiveInput } from "../../providers/types.ts";
import { liveMessageText, liveQuestionText } from "../prompts/messages.ts";
import { lastTurnEnded } from "./turns.ts";

export interface LiveDeps {
  store: Store;
  bus: EventBus;
  log: Logger;
  /** This troupe by absolute path, for the answer command a question carries. */
  troupe: () => string;
  /** Whether the agent is in a `troupe listen` now: a question is then left to it (it claims it at once). */
  listening?: (agentId: string) => boolean;
}

/** A running session whose stdin is a stream troupe feeds. */
interface Stream {
  agentId: string;
  session: number;
  dir: string;
  live: LiveInput;
}

/**
 * Messages and questions into running sessions (a provider with `liveInput`: Claude Code).
 *
 * Whoever takes a conversation first has it: the agent's own `troupe listen` (a question is not
 * written while it is in one) or its session's input.
 *
 * Each is claimed for the session and recorded as a line (`session_inputs`) in one transaction,
 * so it is handed out once (a `troupe listen` or inbox of the same agent then no longer sees it),
 * then written whole into the session's input stream (src/agents/sessions/input-stream.ts). The
 * CLI's echo of the line's id marks it taken. The stream is closed once a turn ended (a result)
 * with nothing written and not taken and nothing left to write: the run then ends as a run
 * without live input does. When the session ends, what its CLI never took goes back (queued,
 * pending), to the agent's inbox, its `listen` or its next run.
 *
 * Across a daemon `kill -9`: a line recorded but never written (the daemon died in between) is
 * written again at start; one written is in the stream's folder (the feeder moves it to `sent/`
 * before copying it to the agent, so it is copied once); a turn that ended while no daemon ran is
 * found in the session's stored output.
 */
export class LiveInputs implements SessionInputPort {
  private off: (() => void) | null = null;
  private readonly due = new Map<string, ReturnType<typeof setImmediate>>();

  constructor(private readonly d: LiveDeps) {}

  /** After the agent runtime started (the sessions it adopted are the ones to pick up again). */
  start(): void {
    this.off = this.d.bus.subscribe((p) => this.on(p));
    for (const s of this.d.store.sessions.open()) {
      const stream = this.streamOf(s.agentId);
      if (stream?.session === s.session) this.recover(stream);
    }
  }

  shutdown(): void {
    this.off?.();
    this.off = null;
    for (const t of this.due.values()) clearImmediate(t);
    this.due.clear();
  }

  opened(agentId: string): void {
    this.schedule(agentId);
  }

  output(agentId: string, session: number, seen: InputSeen): void {
    const { store } = this.d;
    if (seen.taken.length) store.sessionInputs.take(agentId, seen.taken);
    if (!seen.turnEnded) return;
    const stream = this.streamOf(agentId);
    if (stream?.session === session) this.turnEnded(stream);
  }

  ended(agentId: string, session: number): void {
    const { store, bus } = this.d;
    const back = store.sessionInputs.release(agentId, session);
    for (const message of back.messages) bus.publish({ type: "message:updated", message });
    for (const conversation of back.conversations) bus.publish({ type: "conversation:updated", conversation });
    const sess = store.sessions.get(agentId, session);
    if (sess) removeStream(inputDirFor(sess.exitPath));
  }

  /**
   * Whether a line the session holds unread may go to the agent's own `listen` or inbox instead
   * (SessionInputRepo.takeHeldQuestion): yes where its CLI holds it in its stdin already (the
   * feeder copied it); for an ACP runner, which takes its folder's lines itself when it prompts
   * with them, only while the line still waits in the folder, which it then leaves (a rename, as
   * the runner's own claim is: one of the two has it, never both).
   */
  takeBack(agentId: string, session: number, seq: number): boolean {
    const rec = this.d.store.agents.get(agentId);
    const sess = this.d.store.sessions.get(agentId, session);
    if (!rec || !sess || getProvider(rec.provider)?.transport !== "acp") return true;
    return withdrawLine(inputDirFor(sess.exitPath), seq);
  }

  private on({ event: e }: Published): void {
    if (this.off === null) return;
    if (e.type === "message:created" || (e.type === "message:updated" && e.message.status === "queued")) {
      if (e.message.toId !== USER) this.schedule(e.message.toId);
    } else if (e.type === "conversation:created" || (e.type === "conversation:updated" && e.conversation.status === "pending")) {
      if (e.conversation.toId !== USER) this.schedule(e.conversation.toId);
    }
  }

  /** Fed once the current burst of events is over. */
  private schedule(agentId: string): void {
    if (this.off === null || this.due.has(agentId)) return;
    this.due.set(
      agentId,
      setImmediate(() => {
        this.due.delete(agentId);
        const stream = this.streamOf(agentId);
        if (stream) this.feed(stream);
      }),
    );
  }

  /** The agent's running session, when its stdin is an open stream. */
  private streamOf(agentId: string): Stream | null {
    const { store } = this.d;
    const rec = store.agents.get(agentId);
    if (rec?.status !== "running") return null;
    const live = getProvider(rec.provider)?.liveInput;
    const sess = store.sessions.get(agentId, rec.session);
    if (!live || !sess || sess.endedAt !== null || sess.pid === null) return null;
    const dir = inputDirFor(sess.exitPath);
    return streamOpen(dir) ? { agentId, session: rec.session, dir, live } : null;
  }

  /** Writes what waits for the agent, oldest first, one line each. */
  private feed(s: Stream): void {
    for (;;) {
      const line = this.claimOne(s);
      if (!line) return;
      try {
        writeLine(s.dir, line.seq, line.line);
      } catch (err) {
        // its session's end gives it back (it was never taken)
        this.d.log.warn(`${s.agentId} session ${s.session}: writing into its input failed`, err);
        return;
      }
    }
  }

  /** The oldest message or question waiting for the agent, claimed for the session and recorded as a line, in one transaction. */
  private claimOne(s: Stream): SessionInput | null {
    const { store, bus } = this.d;
    const claimed = store.db.transaction(() => {
      const msg = store.messages.oldestQueued(s.agentId);
      // an agent in a listen gets its question there, not later after the tool it is in
      const conv = this.d.listening?.(s.agentId) ? null : store.conversations.oldestPending(s.agentId);
      const id = randomUUID();
      if (msg && (!conv || msg.createdAt <= conv.createdAt)) {
        const m = store.messages.claimNextForSession(s.agentId, s.session)!;
        const input = store.sessionInputs.add({ id, agentId: s.agentId, session: s.session, messageSeq: m.seq, line: s.live.line(liveMessageText(this.d.troupe(), m), id) });
        return { input, message: m, conversation: null };
      }
      if (!conv) return null;
      const c = store.conversations.claimNext(s.agentId, s.session)!;
      const input = store.sessionInputs.add({ id, agentId: s.agentId, session: s.session, conversationId: c.id, line: s.live.line(liveQuestionText(this.d.troupe(), c), id) });
      return { input, message: null, conversation: c };
    })();
    if (!claimed) return null;
    if (claimed.message) bus.publish({ type: "message:updated", message: claimed.message });
    if (claimed.conversation) bus.publish({ type: "conversation:updated", conversation: claimed.conversation });
    return claimed.input;
  }

  /** A turn is over: what waits starts the next; with nothing written and not taken, the stream closes and the run ends. */
  private turnEnded(s: Stream): void {
    this.feed(s);
    if (this.d.store.sessionInputs.untaken(s.agentId, s.session).length) return;
    closeStream(s.dir);
    this.d.log.info(`${s.agentId} session ${s.session}: turn over with nothing to deliver; its input is closed`);
  }

  /** A stream an earlier daemon fed: lines it recorded and never wrote are written, and a turn that ended meanwhile is acted on. */
  private recover(s: Stream): void {
    for (const line of this.d.store.sessionInputs.untaken(s.agentId, s.session)) {
      const state = lineState(s.dir, line.seq);
      if (state === "missing") writeLine(s.dir, line.seq, line.line);
      else if (state === "queued") wake(s.dir);
    }
    const rec = this.d.store.agents.get(s.agentId);
    if (rec && lastTurnEnded(this.d.store, rec.provider, s.agentId, s.session)) this.turnEnded(s);
    else this.feed(s);
  }
}
