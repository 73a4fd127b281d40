import { z } from "zod";
import { MessageSchema } from "./message.ts";

/** `to`: an agent (id or name), `user`, `all` (every other live or idle agent: queued only), or `supervisor` (the sender's parent). */
export const SendRequestSchema = z.object({
  to: z.string().min(1),
  text: z.string().min(1).max(256 * 1024),
});
export type SendRequest = z.input<typeof SendRequestSchema>;

export const MessageResponseSchema = z.object({ messages: z.array(MessageSchema) });
/** `GET /v1/inbox?after=SEQ&wait=MS`: the caller's messages after `after`, oldest first; with `wait`, a long poll until one comes. Reading delivers them. */
export const InboxResponseSchema = z.object({ messages: z.array(MessageSchema) });
/** `GET /v1/messages?to=user&unread`: the person's messages not yet read, oldest first; delivers nothing. */
export const UnreadResponseSchema = z.object({ messages: z.array(MessageSchema) });
/** `POST /v1/messages/:id/read` (the person, a message to `user`). */
export const MessageReadResponseSchema = z.object({ message: MessageSchema });
