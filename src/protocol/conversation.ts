import { z } from "zod";

export const ConversationStatusSchema = z.enum(["pending", "delivered", "answered", "expired"]);
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

/** "user" is the person; anything else is an agent id. */
export const PartySchema = z.string().min(1);

export const ConversationSchema = z.object({
  id: z.string(),
  fromId: PartySchema,
  fromName: z.string(),
  toId: PartySchema,
  toName: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  answeredBy: z.string().nullable(),
  status: ConversationStatusSchema,
  taskId: z.string().nullable(),
  phaseId: z.string().nullable(),
  createdAt: z.number().int(),
  expiresAt: z.number().int().nullable(),
  answeredAt: z.number().int().nullable(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export { USER } from "./party.ts";
