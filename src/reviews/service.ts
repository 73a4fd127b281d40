import { TroupeError, errorMessage } from "../errors.ts";
import type { Agent } from "../protocol/entities.ts";
import type { AddCommentRequest, DiffLine, Review, ReviewComment, SentReview } from "../protocol/review.ts";
import { MAX_COMMENTS } from "../protocol/review.ts";
import type { Message } from "../protocol/message.ts";
import type { Store } from "../store/index.ts";
import type { AgentRecord } from "../store/agents.ts";
import { toAgent } from "../store/agents.ts";
import { commentSeq, type StoredComment } from "../store/reviews.ts";
import type { Caller } from "../agents/caller.ts";
import type { Logger } from "../events/log.ts";
import { reviewMessage } from "../prompts/review.ts";
import { messageWakePrompt } from "../prompts/messages.ts";
import { codeOf, numberOn } from "../protocol/diff-line.ts";
import { anchorAt, findLine, relocate } from "./anchor.ts";
import { deliveryOf } from "./delivery.ts";
import { notInDiff } from "./not-in-diff.ts";

/** What a review reads of agents (the query use case). */
interface ReviewAgents {
  find(ref: string): AgentRecord;
  diff(ref: string): Promise<DiffLine[]>;
}

/** How a sent review wakes a finished agent (the resume use case). */
interface ReviewResumer {
  canResume(ref: string): boolean;
  resumeWith(ref: string, prompt: string): Promise<Agent>;
  troupeCommand(): string;
}

/** `troupe send`'s path: one message, signed with the caller's identity, waking a done addressee when the sender may. */
interface ReviewMail {
  send(caller: Caller, req: { to: string; text: string }, mayWake: (target: AgentRecord) => boolean): Message[];
}

export interface ReviewDeps {
  store: Store;
  log: Logger;
  agents: ReviewAgents;
  resumes: ReviewResumer;
  messages: ReviewMail;
}

/**
 * The person's review of an agent's diff: comments on its lines, kept in the store until sent.
 * Each comment is anchored by its line's text and neighbours (anchor.ts) and found again in the
 * diff as it is whenever the review is read, so one whose line the agent has changed says so.
 * Sending makes of the comments one message through the messages service (what `troupe send`
 * does): to a running agent (its inbox or next run), or resuming a finished one with it.
 */
export class ReviewService {
  constructor(private readonly d: ReviewDeps) {}

  async review(ref: string): Promise<Review> {
    const rec = this.d.agents.find(ref);
    const lines = await this.d.agents.diff(rec.id);
    return { agentId: rec.id, agentName: rec.name, comments: this.d.store.reviews.forAgent(rec.id).map((c) => located(c, lines)) };
  }

  async add(ref: string, req: AddCommentRequest & { side: "new" | "old" }): Promise<ReviewComment> {
    return (await this.addMany(ref, [req]))[0]!;
  }

  /**
   * Comments on one reading of the diff (read once, each line found through its index): all are
   * stored, in order, or none, the first refused saying why.
   */
  async addMany(ref: string, reqs: readonly (AddCommentRequest & { side: "new" | "old" })[]): Promise<ReviewComment[]> {
    const rec = this.d.agents.find(ref);
    this.roomFor(rec, reqs.length);
    const lines = await this.d.agents.diff(rec.id);
    const anchors = reqs.map((req) => {
      let i = findLine(lines, req);
      if (req.code !== undefined && (i === null || codeOf(lines[i]!) !== req.code)) {
        // the diff changed since the commenter read it: the line by its text, or no comment on a guess
        const found = relocate(lines, { file: req.file, side: req.side, line: req.line, section: req.section ?? null, code: req.code, before: [], after: [] });
        if (found.index === null) throw new TroupeError("conflict", `${req.file}:${req.line} has changed in ${rec.name}'s diff since it was read: load the diff again`);
        i = found.index;
      }
      if (i === null) throw new TroupeError("bad_request", notInDiff(lines, rec.name, req));
      return { ...anchorAt(lines, i)!, text: req.text };
    });
    // the diff took a while: the agent may be gone, or the review full, by now
    const now = this.d.agents.find(rec.id);
    this.roomFor(now, reqs.length);
    const { store } = this.d;
    const stored = store.db.transaction(() => anchors.map((a) => store.reviews.insert({ agentId: now.id, ...a })))();
    return stored.map((c) => located(c, lines));
  }

  async edit(id: string, text: string): Promise<ReviewComment> {
    const c = this.comment(id);
    const lines = await this.d.agents.diff(c.agentId);
    const updated = this.d.store.reviews.setText(c.seq, text);
    if (!updated) throw new TroupeError("not_found", `no pending review comment '${id}'`);
    return located(updated, lines);
  }

  remove(id: string): void {
    const c = this.comment(id);
    this.d.store.reviews.delete(c.seq);
  }

  /**
   * The pending comments as one message to the agent, and the review is over. A running agent
   * gets it through its inbox or first in its next run; a done, failed or stopped one is resumed
   * with it, as `r` does; a waiting one gets it with the answers to its questions.
   */
  async send(caller: Caller, ref: string, word?: string): Promise<SentReview> {
    const rec = this.d.agents.find(ref);
    const lines = await this.d.agents.diff(rec.id);
    // from here on nothing waits: what is read is what is sent and deleted
    const now = this.d.agents.find(rec.id);
    const pending = this.d.store.reviews.forAgent(now.id);
    if (!pending.length) throw new TroupeError("bad_request", `no pending review of ${now.name}: comment on its diff first (c in the diff view, or troupe review ${now.name} --comment FILE:LINE TEXT)`);
    const items = pending.map((c) => {
      const l = located(c, lines);
      return { file: c.file, side: c.side, line: l.at?.line ?? c.line, code: c.code, text: c.text, state: l.state };
    });
    const text = reviewMessage(this.d.resumes.troupeCommand(), items, word);
    const { store } = this.d;
    const message = store.db.transaction(() => {
      // the person may resume every agent: a done one is woken for it, as by `troupe send`
      const [sent] = this.d.messages.send(caller, { to: now.id, text }, () => true);
      store.reviews.deleteSent(pending.map((c) => c.seq));
      return sent!;
    })();
    const how = deliveryOf(now, this.d.resumes.canResume(now.id));
    let agent = toAgent(store.agents.get(now.id) ?? now);
    let note = how.note;
    let delivery = how.delivery;
    if (how.delivery === "resumed") {
      try {
        agent = await this.d.resumes.resumeWith(now.id, messageWakePrompt(this.d.resumes.troupeCommand()));
      } catch (err) {
        // the message stays queued: the agent's next run, or its inbox, delivers it
        this.d.log.warn(`could not resume ${now.name} with its review`, err);
        delivery = "queued";
        note = `queued for ${now.name}: it could not be resumed (${errorMessage(err)})`;
      }
    }
    return { message, comments: pending.length, delivery, note, agent };
  }

  private comment(id: string): StoredComment {
    const seq = commentSeq(id);
    const c = seq === null ? null : this.d.store.reviews.get(seq);
    if (!c) throw new TroupeError("not_found", `no pending review comment '${id}'`);
    return c;
  }

  /** Room for `n` more comments in the agent's review. */
  private roomFor(rec: AgentRecord, n: number): void {
    const held = this.d.store.reviews.count(rec.id);
    if (held + n <= MAX_COMMENTS) return;
    if (held >= MAX_COMMENTS) throw new TroupeError("bad_request", `${rec.name}'s review holds ${MAX_COMMENTS} comments already: send it (S) first`);
    throw new TroupeError("bad_request", `${rec.name}'s review holds ${held} comments: ${n} more would pass ${MAX_COMMENTS}; send it (S) first`);
  }
}

/** A stored comment as the API shows it: found again in `lines`, the diff as it is now. */
export function located(c: StoredComment, lines: readonly DiffLine[]): ReviewComment {
  const found = relocate(lines, c);
  const l = found.index === null ? null : lines[found.index]!;
  return {
    id: c.id,
    agentId: c.agentId,
    file: c.file,
    side: c.side,
    line: c.line,
    section: c.section,
    code: c.code,
    text: c.text,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    state: found.state,
    at: l ? { section: l.section ?? null, line: numberOn(l, c.side)! } : null,
  };
}
