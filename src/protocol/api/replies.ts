import type { Conversation, ConversationStatus } from "../conversation.ts";

/**
 * Hand-written checks of the replies the agents' hot commands read (`troupe answer`, `ask`,
 * `listen`, `signal`), as strict as the zod schemas in src/protocol/ (tests/protocol/api/replies.test.ts
 * holds each against its schema, field by field). Loading zod and building the conversation
 * schemas was ~6 ms of a ~15 ms `troupe answer`; these cost nothing to load. Every other reply
 * is still parsed by its zod schema.
 */

/** What a reply is checked with: a zod schema, or one of the checks below (the same shape). */
export interface ReplyCheck<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
}

type Kind = "string" | "party" | "string|null" | "int" | "int|null" | "status";

// Every key of Conversation must be listed (the type checker holds it), each with its schema's rule.
const CONVERSATION: Record<keyof Conversation, Kind> = {
  id: "string",
  fromId: "party",
  fromName: "string",
  toId: "party",
  toName: "string",
  question: "string",
  answer: "string|null",
  answeredBy: "string|null",
  status: "status",
  taskId: "string|null",
  phaseId: "string|null",
  createdAt: "int",
  expiresAt: "int|null",
  answeredAt: "int|null",
};

export const CONVERSATION_STATUSES: readonly ConversationStatus[] = ["pending", "delivered", "answered", "expired"];

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function fits(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof v === "string";
    case "party":
      return typeof v === "string" && v.length > 0;
    case "string|null":
      return v === null || typeof v === "string";
    case "int":
      return Number.isSafeInteger(v);
    case "int|null":
      return v === null || Number.isSafeInteger(v);
    case "status":
      return CONVERSATION_STATUSES.includes(v as ConversationStatus);
  }
}

/** The conversation with exactly its fields (unknown keys dropped, as zod does), or why not. */
function conversation(v: unknown, at: string): Conversation | string {
  if (!isObject(v)) return `${at}: expected an object`;
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(CONVERSATION)) {
    if (!fits(kind, v[key])) return `${at}.${key}: expected ${kind}`;
    out[key] = v[key];
  }
  return out as Conversation;
}

export function check<T>(read: (v: unknown) => T | string): ReplyCheck<T> {
  return {
    safeParse(value) {
      const r = read(value);
      return typeof r === "string" ? { success: false, error: { issues: [{ message: r }] } } : { success: true, data: r };
    },
  };
}

/** `{conversation}`: an ask, a wait, an answer. */
export const ConversationReply = check((v) => {
  if (!isObject(v)) return "expected an object";
  const c = conversation(v.conversation, "conversation");
  return typeof c === "string" ? c : { conversation: c };
});

/** `{conversation | null}`: a listen. */
export const ListenReply = check((v) => {
  if (!isObject(v)) return "expected an object";
  if (v.conversation === null) return { conversation: null };
  const c = conversation(v.conversation, "conversation");
  return typeof c === "string" ? c : { conversation: c };
});

/** `{ok: true}`. */
export const OkReply = check((v) => (isObject(v) && v.ok === true ? { ok: true as const } : "expected {ok: true}"));

/** `{error: {code, message}}`: how the daemon says no. */
export const ErrorReply = check((v) => {
  const e = isObject(v) ? v.error : undefined;
  if (!isObject(e) || typeof e.code !== "string" || typeof e.message !== "string") return "expected {error: {code, message}}";
  return { error: { code: e.code, message: e.message } };
});
