import { z } from "zod";

/**
 * A message between parties: an agent (by id), the person (`user`), or every agent (`all`, which
 * only queues). Unlike a conversation it expects no answer. The sender is always the caller's
 * identity, never something the text says.
 */
const MessageStatusSchema = z.enum([
  /** waiting for its addressee: at its next run, or when it reads its inbox */
  "queued",
  /** handed over: in a resume's prompt, or read through the inbox */
  "delivered",
  /** the person saw it in the dashboard (messages to the user) */
  "read",
]);

export const MessageSchema = z.object({
  /** Ordered: a later message has a greater id (`msg_<n>` compares by its number). */
  id: z.string(),
  seq: z.number().int(),
  fromId: z.string(),
  fromName: z.string(),
  /** An agent id, or `user`. A message to `all` is stored once per addressee. */
  toId: z.string(),
  toName: z.string(),
  text: z.string(),
  status: MessageStatusSchema,
  createdAt: z.number().int(),
  deliveredAt: z.number().int().nullable(),
});
export type Message = z.infer<typeof MessageSchema>;
