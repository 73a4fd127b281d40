import { TroupeError } from "../../errors.ts";
import { SendRequestSchema } from "../../protocol/api-messages.ts";
import type { Services } from "../../services/services.ts";
import { intParam, json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

/** Messages: send (one per addressee), the caller's inbox (a long poll with `wait`), read marks. */
export function messageRoutes(r: Router, s: Services): void {
  r.on("POST", "/v1/messages", async ({ req, caller }) => {
    const body = await readJson(req, SendRequestSchema);
    return json({ messages: s.messages.send(caller, body) }, 201);
  });
  // only `to=user&unread` is asked for: the dashboard's snapshot, which changes no status
  r.on("GET", "/v1/messages", ({ url, caller }) => {
    if (url.searchParams.get("to") !== "user" || !url.searchParams.has("unread")) throw new TroupeError("bad_request", "GET /v1/messages takes to=user&unread");
    return json({ messages: s.messages.unread(caller) });
  });
  r.on("GET", "/v1/inbox", async ({ url, req, caller }) => {
    const q = { after: intParam(url, "after"), waitMs: intParam(url, "wait") };
    return json({ messages: await s.messages.inbox(caller, q, req.signal) });
  });
  r.on("POST", "/v1/messages/:id/read", ({ params, caller }) => json({ message: s.messages.markRead(caller, params.id!) }));
}
