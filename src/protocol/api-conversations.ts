import { z } from "zod";
import { ConversationSchema } from "./conversation.ts";

export const AskRequestSchema = z
  .object({
    question: z.string().min(1),
    to: z.string().min(1).optional(),
    user: z.boolean().optional(),
    task: z.string().min(1).optional(),
    phase: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .refine((r) => [r.to, r.user || undefined, r.task, r.phase].filter((x) => x !== undefined).length === 1, {
    message: "exactly one of to, user, task, phase",
  });
export type AskRequest = z.input<typeof AskRequestSchema>;

export const AnswerRequestSchema = z.object({ answer: z.string().min(1) });

export const ConversationResponseSchema = z.object({ conversation: ConversationSchema });
export const ConversationsResponseSchema = z.object({ conversations: z.array(ConversationSchema) });
export const ListenResponseSchema = z.object({ conversation: ConversationSchema.nullable() });
