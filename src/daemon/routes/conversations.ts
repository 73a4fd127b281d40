import { AnswerRequestSchema, AskRequestSchema } from "../../protocol/api.ts";
import type { Services } from "../../services/services.ts";
import { intParam, json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

export function conversationRoutes(r: Router, s: Services): void {
  r.on("POST", "/v1/conversations", async ({ req, caller }) => {
    const body = await readJson(req, AskRequestSchema);
    return json({ conversation: s.conversations.ask(caller, body) }, 201);
  });
  r.on("GET", "/v1/conversations", ({ url, caller }) => json({ conversations: s.conversations.list(caller, { pending: url.searchParams.has("pending") }) }));
  r.on("GET", "/v1/conversations/:id", async ({ params, url, req, caller }) => {
    return json({ conversation: await s.conversations.wait(caller, params.id!, intParam(url, "wait") ?? 0, req.signal) });
  });
  r.on("POST", "/v1/conversations/:id/answer", async ({ req, params, caller }) => {
    const body = await readJson(req, AnswerRequestSchema);
    return json({ conversation: s.conversations.answer(caller, params.id!, body.answer) });
  });
  r.on("GET", "/v1/listen", async ({ url, req, caller }) => {
    return json({ conversation: await s.conversations.listen(caller, intParam(url, "wait") ?? 0, req.signal) });
  });
}
