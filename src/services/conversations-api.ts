import type { ConversationService } from "../conversations/service.ts";
import { USER } from "../protocol/entities.ts";
import type { Guard } from "./guard.ts";
import type { ConversationsApi } from "./services.ts";

/** The conversation service behind the policy: each method is authorized for its caller, then done. */
export function conversationsApi(conversations: ConversationService, guard: Guard): ConversationsApi {
  return {
    ask(caller, req) {
      guard(caller, "conversations.ask");
      return conversations.ask(caller, req);
    },
    list(caller, q) {
      guard(caller, "conversations.list");
      return conversations.list(q);
    },
    wait(caller, id, waitMs, signal) {
      guard(caller, "conversations.get");
      return conversations.wait(id, waitMs, signal);
    },
    answer(caller, id, answer) {
      const c = conversations.get(id);
      // the addressee is the target: only it (or the person) answers
      guard(caller, "conversations.answer", c.toId === USER ? null : { id: c.toId, name: c.toName });
      return conversations.answer(caller, id, answer);
    },
    listen(caller, waitMs, signal) {
      guard(caller, "conversations.listen");
      return conversations.listen(caller, waitMs, signal);
    },
  };
}
