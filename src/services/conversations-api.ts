import type { ConversationService } from "../conversations/service.ts";
import type { CONVERSATION_ENDPOINTS } from "../protocol/api/conversations.ts";
import type { HandlersOf } from "./services.ts";

/** The conversations' endpoints over the conversation service (the guard has let the caller through). */
export function conversationsApi(conversations: ConversationService): HandlersOf<typeof CONVERSATION_ENDPOINTS> {
  return {
    ask: (caller, req) => conversations.ask(caller, req),
    conversations: (_caller, q) => conversations.list(q),
    conversation: (_caller, { id, wait }, signal) => conversations.wait(id, wait ?? 0, signal),
    answer: (caller, { id, answer }) => conversations.answer(caller, id, answer),
    listen: (caller, { wait }, signal) => conversations.listen(caller, wait ?? 0, signal),
  };
}
