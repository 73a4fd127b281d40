import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { RECONNECT_MS, withReconnect } from "../client/reconnect.ts";
import type { Message } from "../protocol/message.ts";
import type { McpContext } from "./context.ts";
import type { EndpointShapes } from "./shapes.ts";
import { guarded, json, text } from "./result.ts";
import { MCP_MAX_WAIT_SECONDS } from "../protocol/mcp.ts";

/** One inbox request is held at most this long by the daemon; the server asks again until its own deadline. */
const POLL_WINDOW_MS = 30_000;

const view = (m: Message) => ({ id: m.id, seq: m.seq, from: m.fromName, fromId: m.fromId, to: m.toName, text: m.text, createdAt: m.createdAt });

/** Messages (send_message, read_inbox, wait_for_message) and conversations (ask, answer). */
export function registerTalkTools(server: McpServer, ctx: McpContext, shapes: EndpointShapes): void {
  server.registerTool(
    "send_message",
    {
      description: 'Send a message (no answer expected). to: an agent\'s id or name, "supervisor" (the agent that started you), "user" (the person) or "all" (every other agent). You are the sender; the text cannot change that.',
      inputSchema: shapes.message,
    },
    ({ to, text: body }) => guarded(async () => json((await ctx.client.send({ to, text: body })).map(view))),
  );

  server.registerTool(
    "read_inbox",
    {
      description: "Your messages, oldest first: those not yet delivered, or with `after` every message after that seq (read or not); reading delivers them.",
      inputSchema: { after: shapes.after },
    },
    ({ after }) => guarded(async () => json((await ctx.client.inbox({ after })).map(view))),
  );

  server.registerTool(
    "wait_for_message",
    {
      description: "Wait until a message reaches you (pushed by the daemon, no polling), up to timeoutSeconds (default 600); returns the messages, or [] when none came.",
      inputSchema: { timeoutSeconds: z.number().int().positive().max(MCP_MAX_WAIT_SECONDS).optional() },
    },
    ({ timeoutSeconds }, extra) =>
      guarded(async () => {
        const deadline = Date.now() + (timeoutSeconds === undefined ? ctx.defaultWaitMs : timeoutSeconds * 1000);
        for (;;) {
          const waitMs = Math.min(POLL_WINDOW_MS, Math.max(0, deadline - Date.now()));
          const got = await withReconnect(deadline + 15_000, () => ctx.client.inbox({ wait: waitMs }, extra.signal));
          if (got.length > 0 || Date.now() >= deadline || extra.signal.aborted) return json(got.map(view));
        }
      }),
  );

  server.registerTool(
    "ask",
    {
      description: "Ask an agent (to: id or name) or the person (user: true) a question and wait for the answer (default up to 600 s; the question expires then).",
      inputSchema: { ...shapes.ask, timeoutSeconds: z.number().int().positive().max(MCP_MAX_WAIT_SECONDS).optional() },
    },
    ({ to, user, question, timeoutSeconds }, extra) =>
      guarded(async () => {
        if ((to === undefined) === !user) return text("give exactly one of to (an agent) or user: true", true);
        const timeoutMs = timeoutSeconds === undefined ? ctx.defaultWaitMs : timeoutSeconds * 1000;
        const asked = await ctx.client.ask({ question, ...(to !== undefined ? { to } : { user: true }), timeoutMs });
        // the daemon expires the question at its deadline; ask again (and ride out a restart) until it says so
        const deadline = (asked.expiresAt ?? Date.now() + timeoutMs) + 10_000;
        for (;;) {
          const c = await withReconnect(deadline, () => ctx.client.conversation(asked.id, { wait: POLL_WINDOW_MS }, extra.signal));
          if (c.status === "answered") return text(c.answer ?? "");
          if (c.status === "expired") return text(`no answer from ${c.toName} (conversation ${c.id} expired)`, true);
          if (Date.now() > deadline || extra.signal.aborted) return text(`no answer from ${c.toName} within ${timeoutMs / 1000} s`, true);
        }
      }),
  );

  server.registerTool(
    "answer",
    {
      description: "Answer a conversation addressed to you (its id comes with the question).",
      inputSchema: shapes.answer,
    },
    ({ conversationId, answer }) => guarded(async () => json(await withReconnect(Date.now() + RECONNECT_MS, () => ctx.client.answer(conversationId, { answer })))),
  );
}
