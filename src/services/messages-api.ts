import { TroupeError } from "../errors.ts";
import type { MessageService } from "../messages/service.ts";
import type { MESSAGE_ENDPOINTS } from "../protocol/api/messages.ts";
import type { Guard } from "./guard.ts";
import type { HandlersOf } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The messages' endpoints over the message service (the guard has let the caller through). */
export function messagesApi(messages: MessageService, guard: Guard, waits: PurposefulWaits): HandlersOf<typeof MESSAGE_ENDPOINTS> {
  return {
    // a sender that may resume the addressee (the `resume` rule) wakes it when it is done; anyone else only queues
    send: (caller, req) => messages.send(caller, req, (target) => guard.permits(caller, "resume", target)),
    // an inbox is always the caller's own (the person's: messages to `user`)
    inbox(caller, { after, wait }, signal) {
      const q = { after, waitMs: wait };
      return wait ? waits.during(caller, () => messages.inbox(caller, q, signal)) : messages.inbox(caller, q, signal);
    },
    messages(_caller, { to, unread }) {
      // only `to=user&unread` is asked for: the dashboard's snapshot, which changes no status
      if (to !== "user" || !unread) throw new TroupeError("bad_request", "GET /v1/messages takes to=user&unread");
      return messages.unread();
    },
    markRead: (_caller, { id }) => messages.markRead(id),
  };
}
