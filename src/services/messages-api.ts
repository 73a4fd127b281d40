import type { MessageService } from "../messages/service.ts";
import type { Guard, Permits } from "./guard.ts";
import type { MessagesApi } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The message service behind the policy: each method is authorized for its caller, then done. */
export function messagesApi(messages: MessageService, guard: Guard, permits: Permits, waits: PurposefulWaits): MessagesApi {
  return {
    send(caller, req) {
      guard(caller, "messages.send");
      // a sender that may resume the addressee wakes it when it is done; anyone else only queues
      return messages.send(caller, req, (target) => permits(caller, "agents.resume", target));
    },
    inbox(caller, q, signal) {
      guard(caller, "messages.inbox");
      return q.waitMs ? waits.during(caller, () => messages.inbox(caller, q, signal)) : messages.inbox(caller, q, signal);
    },
    unread(caller) {
      guard(caller, "messages.unread");
      return messages.unread();
    },
    markRead(caller, id) {
      guard(caller, "messages.read");
      return messages.markRead(id);
    },
  };
}
