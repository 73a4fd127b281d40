import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";

/** Messages: one per addressee, queued until delivered once (an inbox, or a session's prompt). */
export const MESSAGE_ENDPOINTS = {
  send: endpoint({
    method: "POST",
    path: "/v1/messages",
    summary:
      "Sends `text` to `to`: an agent (id or name), `user`, `all` (every other live or idle agent: queued only) or `supervisor` (the sender's parent; the person for an agent the person started); one message per addressee, signed with the caller's identity. A sender that may resume a done addressee (the `resume` rule) wakes it; anyone else only queues.",
    rule: "anyone",
    does: "send a message",
    body: schema("messages", "SendRequestSchema"),
    reply: reply.key(schema("messages", "MessageResponseSchema"), "messages"),
    status: 201,
  }),
  inbox: endpoint({
    method: "GET",
    path: "/v1/inbox",
    summary: "The caller's own messages, oldest first: after `after` (any status), else the queued ones; the queued among them are delivered. `wait` holds it (at most 60 s) until one comes.",
    rule: "anyone",
    does: "read its inbox",
    query: { after: query.int("every message after this seq, read or not"), wait: query.int("milliseconds to hold the request until one comes") },
    reply: reply.key(schema("messages", "InboxResponseSchema"), "messages"),
  }),
  // the dashboard's snapshot of what waits for the person; unlike the inbox it delivers nothing
  messages: endpoint({
    method: "GET",
    path: "/v1/messages",
    summary: "The person's messages not yet read, oldest first; read-only (it delivers nothing). Takes exactly `to=user&unread`.",
    rule: "person",
    does: "list the person's unread messages",
    query: { to: query.text("`user`"), unread: query.flag("required") },
    reply: reply.key(schema("messages", "UnreadResponseSchema"), "messages"),
  }),
  markRead: endpoint({
    method: "POST",
    path: "/v1/messages/:id/read",
    summary: "A message to the person, seen.",
    rule: "person",
    does: "mark a message read",
    params: { id: "a message's id" },
    reply: reply.key(schema("messages", "MessageReadResponseSchema"), "message"),
  }),
} as const;
