import { expect, test } from "bun:test";
import { ConversationReply, CONVERSATION_STATUSES, ErrorReply, ListenReply, OkReply } from "../../../src/protocol/api/replies.ts";
import { ConversationResponseSchema, ListenResponseSchema } from "../../../src/protocol/api-conversations.ts";
import { ConversationSchema, ConversationStatusSchema } from "../../../src/protocol/conversation.ts";
import { ErrorBodySchema, OkSchema } from "../../../src/protocol/api-base.ts";

// The hand-written checks must accept exactly what the zod schemas accept, and give the same value.

const valid = {
  id: "cv_1",
  fromId: "user",
  fromName: "user",
  toId: "ag_1",
  toName: "brave-otter",
  question: "ready?",
  answer: null,
  answeredBy: null,
  status: "pending",
  taskId: null,
  phaseId: "ph_1",
  createdAt: 1700000000000,
  expiresAt: null,
  answeredAt: 1700000000001,
};

// every kind of wrong value a JSON reply can hold, and a few right ones
const VALUES: unknown[] = [undefined, null, "", "x", "answered", 0, 1.5, -3, 2 ** 60, true, [], {}, ["x"]];

test("the conversation check agrees with ConversationSchema on every field, for every value", () => {
  expect([...CONVERSATION_STATUSES]).toEqual(ConversationStatusSchema.options);
  const keys = Object.keys(ConversationSchema.shape);
  let compared = 0;
  for (const key of keys) {
    for (const value of VALUES) {
      const conv: Record<string, unknown> = { ...valid, [key]: value };
      if (value === undefined) delete conv[key];
      const reply = { conversation: conv };
      const zod = ConversationResponseSchema.safeParse(reply);
      const mine = ConversationReply.safeParse(reply);
      expect({ key, value, ok: mine.success }).toEqual({ key, value, ok: zod.success });
      if (zod.success && mine.success) expect(mine.data).toEqual(zod.data);
      compared++;
    }
  }
  expect(compared).toBe(keys.length * VALUES.length);
});

test("unknown keys are dropped as zod drops them; a listen may answer null", () => {
  const reply = { conversation: { ...valid, extra: 1 }, more: true };
  expect(ConversationReply.safeParse(reply)).toEqual(ConversationResponseSchema.safeParse(reply) as never);
  for (const r of [{ conversation: null }, { conversation: valid }, {}, { conversation: { ...valid, status: "gone" } }, null, [], "x"]) {
    expect(ListenReply.safeParse(r).success).toBe(ListenResponseSchema.safeParse(r).success);
    expect(ConversationReply.safeParse(r).success).toBe(ConversationResponseSchema.safeParse(r).success);
  }
});

test("ok and error bodies", () => {
  for (const r of [{ ok: true }, { ok: false }, { ok: "true" }, {}, null, { ok: true, extra: 1 }]) {
    expect(OkReply.safeParse(r).success).toBe(OkSchema.safeParse(r).success);
  }
  const bodies = [{ error: { code: "x", message: "y" } }, { error: { code: "x" } }, { error: { code: 1, message: "y" } }, { error: "x" }, {}, null, { error: { code: "a", message: "b", extra: 1 } }];
  for (const r of bodies) {
    const zod = ErrorBodySchema.safeParse(r);
    const mine = ErrorReply.safeParse(r);
    expect(mine.success).toBe(zod.success);
    if (zod.success && mine.success) expect(mine.data).toEqual(zod.data);
  }
});
