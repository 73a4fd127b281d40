import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

const REF = { ref: "an account's id or name" } as const;
const accountReply = reply.key(schema("accounts", "AccountResponseSchema"), "account");

/**
 * The user's provider accounts: they hold credentials and are shared by every workspace, so all
 * of it is the person's alone. No secret is ever in a reply.
 */
export const ACCOUNT_ENDPOINTS = {
  accounts: endpoint({
    method: "GET",
    path: "/v1/accounts",
    summary: "Every account (the public view).",
    rule: "person",
    does: "list accounts",
    reply: reply.key(schema("accounts", "AccountListResponseSchema"), "accounts"),
  }),
  addAccount: endpoint({
    method: "POST",
    path: "/v1/accounts",
    summary: "A new account: `provider`, `name`, one of `token`, `configDir`, `env`.",
    rule: "person",
    does: "add an account",
    body: schema("accounts", "AddAccountRequestSchema"),
    reply: accountReply,
    status: 201,
  }),
  removeAccount: endpoint({ method: "DELETE", path: "/v1/accounts/:ref", summary: "Removes the account.", rule: "person", does: "remove an account", params: REF, reply: accountReply }),
  resetAccount: endpoint({
    method: "POST",
    path: "/v1/accounts/:ref/reset",
    summary: "No longer spent nor refused: blocked agents of its provider retry at once.",
    rule: "person",
    does: "reset an account",
    params: REF,
    reply: accountReply,
  }),
} as const;
