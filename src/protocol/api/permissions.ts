import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";

const ID = { id: "a permission request's id" } as const;
// reading requests (and waiting for a decision) is open, like reading an agent's output
const READ = { rule: "anyone", does: "read permission requests" } as const;
const requestReply = reply.key(schema("permissions", "PermissionResponseSchema"), "request");

/** Tool permissions: an agent files its own tool calls; only the person decides. */
export const PERMISSION_ENDPOINTS = {
  // an agent's permission tool files its own tool calls (under its identity, never another's)
  filePermission: endpoint({
    method: "POST",
    path: "/v1/permissions",
    summary: "The calling agent's tool call (its permission tool): decided at once by its rules, or filed pending for the person; the same `toolUseId` returns the request filed before.",
    rule: "agent",
    does: "file a permission request",
    olderBuilds: true,
    body: schema("permissions", "PermissionFileRequestSchema"),
    reply: requestReply,
  }),
  permissions: endpoint({
    method: "GET",
    path: "/v1/permissions",
    summary: "Permission requests, oldest first.",
    ...READ,
    query: { pending: query.flag("only pending ones"), status: query.text("`pending`: the same as `pending`") },
    reply: reply.key(schema("permissions", "PermissionsResponseSchema"), "requests"),
  }),
  permission: endpoint({
    method: "GET",
    path: "/v1/permissions/:id",
    summary: "One permission request.",
    ...READ,
    params: ID,
    reply: requestReply,
  }),
  waitPermission: endpoint({
    method: "GET",
    path: "/v1/permissions/:id/wait",
    summary: "A long poll (at most 60 s a request): the request once decided or cancelled, else as it is when the wait ends.",
    ...READ,
    olderBuilds: true,
    params: ID,
    query: { timeout: query.int("milliseconds to hold the request (default 0)"), wait: query.int("the same, when `timeout` is not given") },
    reply: requestReply,
  }),
  // allowing or denying a tool permission: the person decides, never an agent (its own request included)
  decidePermission: endpoint({
    method: "POST",
    path: "/v1/permissions/:id/decide",
    summary: "The person's choice: `{behavior: \"allow\", always?, updatedInput?}` or `{behavior: \"deny\", reason}`; a request not pending, or whose session ended, is 409.",
    rule: "person",
    does: "decide a permission request of $",
    target: "permission",
    params: ID,
    body: schema("permissions", "PermissionDecisionSchema"),
    reply: requestReply,
  }),
} as const;
