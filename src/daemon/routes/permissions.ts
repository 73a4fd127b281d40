import { PermissionDecisionSchema, PermissionFileRequestSchema } from "../../protocol/permission.ts";
import type { Services } from "../../services/services.ts";
import { intParam, json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

export function permissionRoutes(r: Router, s: Services): void {
  // an agent's permission tool: the request filed now, or the one it filed before with that tool_use id
  r.on("POST", "/v1/permissions", async ({ req, caller }) => json({ request: s.permissions.file(caller, await readJson(req, PermissionFileRequestSchema)) }));
  r.on("GET", "/v1/permissions", ({ url, caller }) => {
    const status = url.searchParams.get("status");
    return json({ requests: s.permissions.list(caller, { pending: status === "pending" || url.searchParams.has("pending") }) });
  });
  r.on("GET", "/v1/permissions/:id", ({ params, caller }) => json({ request: s.permissions.get(caller, params.id!) }));
  // a long poll (≤ 60 s a request): the request once decided; the tool asks again to wait longer
  r.on("GET", "/v1/permissions/:id/wait", async ({ params, url, req, caller }) => {
    const waitMs = intParam(url, "timeout") ?? intParam(url, "wait") ?? 0;
    return json({ request: await s.permissions.wait(caller, params.id!, waitMs, req.signal) });
  });
  r.on("POST", "/v1/permissions/:id/decide", async ({ req, params, caller }) => {
    return json({ request: s.permissions.decide(caller, params.id!, await readJson(req, PermissionDecisionSchema)) });
  });
}
