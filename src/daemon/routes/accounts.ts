import { AddAccountRequestSchema } from "../../protocol/account.ts";
import type { Services } from "../../services/services.ts";
import { json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

/** The user's provider accounts: `GET`/`POST /v1/accounts`, `DELETE /v1/accounts/:ref`, `POST /v1/accounts/:ref/reset`. No secret is ever in a response. */
export function accountRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/accounts", ({ caller }) => json({ accounts: s.accounts.list(caller) }));
  r.on("POST", "/v1/accounts", async ({ req, caller }) => {
    const body = await readJson(req, AddAccountRequestSchema);
    return json({ account: s.accounts.add(caller, body) }, 201);
  });
  r.on("DELETE", "/v1/accounts/:ref", ({ params, caller }) => json({ account: s.accounts.remove(caller, params.ref!) }));
  r.on("POST", "/v1/accounts/:ref/reset", ({ params, caller }) => json({ account: s.accounts.reset(caller, params.ref!) }));
}
