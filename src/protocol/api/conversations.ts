import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { ConversationReply, ListenReply } from "./reply-checks.ts";
import { schema } from "./schemas.ts";

const ID = { id: "a conversation's id" } as const;
const WAIT = query.int("milliseconds to hold the request (at most 60 s; default 0)");
// the agents' hot commands (ask, answer, listen) check these replies without loading zod
const conversationReply = reply.key(schema("conversations", "ConversationResponseSchema"), "conversation", ConversationReply);

/** Conversations: a question to an agent or the person, and its one answer. */
export const CONVERSATION_ENDPOINTS = {
  ask: endpoint({
    method: "POST",
    path: "/v1/conversations",
    summary: "Asks exactly one of `to` (an agent), `user`, `task`, `phase`; `timeoutMs` expires it.",
    rule: "anyone",
    does: "ask",
    body: schema("conversations", "AskRequestSchema"),
    reply: conversationReply,
    status: 201,
  }),
  conversations: endpoint({
    method: "GET",
    path: "/v1/conversations",
    summary: "Every conversation, or the pending ones.",
    rule: "anyone",
    does: "list conversations",
    query: { pending: query.flag("only those not yet answered") },
    reply: reply.key(schema("conversations", "ConversationsResponseSchema"), "conversations"),
  }),
  conversation: endpoint({
    method: "GET",
    path: "/v1/conversations/:id",
    summary: "One conversation; with `wait`, a long poll until it is answered or expired.",
    rule: "anyone",
    does: "read a conversation",
    params: ID,
    query: { wait: WAIT },
    reply: conversationReply,
  }),
  answer: endpoint({
    method: "POST",
    path: "/v1/conversations/:id/answer",
    summary: "Its answer: only the addressee, or the person; a second answer is 409.",
    rule: "addressee",
    does: "answer a conversation addressed to $",
    target: "conversation",
    params: ID,
    body: schema("conversations", "AnswerRequestSchema"),
    reply: conversationReply,
  }),
  listen: endpoint({
    method: "GET",
    path: "/v1/listen",
    summary:
      "Claims the caller's oldest pending conversation, waiting up to `wait` (null when none came): atomically, never handed out twice; given back if the listener left before the reply, and when its session ends without answering.",
    rule: "anyone",
    does: "listen",
    query: { wait: WAIT },
    reply: reply.key(schema("conversations", "ListenResponseSchema"), "conversation", ListenReply),
  }),
} as const;
