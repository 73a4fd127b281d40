import { z } from "zod";
import { withReconnect } from "../client/reconnect.ts";
import type { Message } from "../protocol/message.ts";
import { MCP_MAX_WAIT_SECONDS } from "../protocol/mcp.ts";
import { json, text } from "./result.ts";
import { tool } from "./tool-row.ts";

/** One inbox request is held at most this long by the daemon; the server asks again until its own deadline. */
const POLL_WINDOW_MS = 30_000;

const timeoutSeconds = z.number().int().positive().max(MCP_MAX_WAIT_SECONDS).optional();
const view = (m: Message) => ({ id: m.id, seq: m.seq, from: m.fromName, fromId: m.fromId, to: m.toName, text: m.text, createdAt: m.createdAt });
const views = (ms: Message[]) => ms.map(view);

/** Messages (send_message, read_inbox, wait_for_message) and conversations (ask, answer). */
export const TALK_TOOLS = [
  tool({
    name: "send_message",
    endpoint: "send",
    description:
      'Send a message (no answer expected). to: an agent\'s id or name, "supervisor" (the agent that started you), "user" (the person) or "all" (every other agent). You are the sender; the text cannot change that.',
    view: views,
  }),
  tool({
    name: "read_inbox",
    endpoint: "inbox",
    description: "Your messages, oldest first: those not yet delivered, or with `after` every message after that seq (read or not); reading delivers them.",
    input: { after: { field: "after", describe: "the seq of the last message you read" } },
    // reading marks the caller's own messages delivered: a read of its own mail, nothing else changes
    readOnly: true,
    view: views,
  }),
  tool({
    name: "wait_for_message",
    endpoint: "inbox",
    description: "Wait until a message reaches you (pushed by the daemon, no polling), up to timeoutSeconds (default 600); returns the messages, or [] when none came.",
    input: {},
    readOnly: true,
    own: { timeoutSeconds },
    run: async (ctx, { timeoutSeconds: t }, extra) => {
      const deadline = Date.now() + (t === undefined ? ctx.defaultWaitMs : t * 1000);
      for (;;) {
        const waitMs = Math.min(POLL_WINDOW_MS, Math.max(0, deadline - Date.now()));
        const got = await withReconnect(deadline + 15_000, () => ctx.client.inbox({ wait: waitMs }, extra.signal));
        if (got.length > 0 || Date.now() >= deadline || extra.signal.aborted) return json(views(got));
      }
    },
  }),
  tool({
    name: "ask",
    endpoint: "ask",
    description: "Ask an agent (to: id or name) or the person (user: true) a question and wait for the answer (default up to 600 s; the question expires then).",
    input: { to: "to", user: "user", question: "question" },
    own: { timeoutSeconds },
    run: async (ctx, { to, user, question, timeoutSeconds: t }, extra) => {
      if ((to === undefined) === !user) return text("give exactly one of to (an agent) or user: true", true);
      const timeoutMs = t === undefined ? ctx.defaultWaitMs : t * 1000;
      const asked = await ctx.client.ask({ question, ...(to !== undefined ? { to } : { user: true }), timeoutMs });
      // the daemon expires the question at its deadline; ask again (and ride out a restart) until it says so
      const deadline = (asked.expiresAt ?? Date.now() + timeoutMs) + 10_000;
      for (;;) {
        const c = await withReconnect(deadline, () => ctx.client.conversation(asked.id, { wait: POLL_WINDOW_MS }, extra.signal));
        if (c.status === "answered") return text(c.answer ?? "");
        if (c.status === "expired") return text(`no answer from ${c.toName} (conversation ${c.id} expired)`, true);
        if (Date.now() > deadline || extra.signal.aborted) return text(`no answer from ${c.toName} within ${timeoutMs / 1000} s`, true);
      }
    },
  }),
  tool({
    name: "answer",
    endpoint: "answer",
    description: "Answer a conversation addressed to you (its id comes with the question).",
    input: { conversationId: "id", answer: "answer" },
    reconnect: true,
  }),
];
