import { ApproveRequestSchema, BudgetRequestSchema, DispatchRequestSchema, EditRequestSchema, InitiativeCreateRequestSchema, RejectRequestSchema } from "../../protocol/api-work.ts";
import type { Services } from "../../services/services.ts";
import { json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

/** The work model. A phase or task ref holds a slash (`<initiative>/<slug>`): clients send it encoded (%2F). */
export function workRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/initiatives", ({ caller }) => json({ initiatives: s.work.listInitiatives(caller) }));
  r.on("POST", "/v1/initiatives", async ({ req, caller }) => {
    const body = await readJson(req, InitiativeCreateRequestSchema);
    return json({ initiative: await s.work.createInitiative(caller, body) }, 201);
  });
  r.on("GET", "/v1/initiatives/:ref", ({ params, caller }) => json({ initiative: s.work.initiative(caller, params.ref!) }));
  r.on("GET", "/v1/initiatives/:ref/tree", ({ params, caller }) => json({ tree: s.work.tree(caller, params.ref!) }));
  r.on("GET", "/v1/initiatives/:ref/work", ({ params, caller }) => json(s.work.items(caller, params.ref!)));
  r.on("POST", "/v1/initiatives/:ref/archive", ({ params, caller }) => json({ initiative: s.work.archive(caller, params.ref!) }));
  r.on("POST", "/v1/initiatives/:ref/budget", async ({ req, params, caller }) => {
    const body = await readJson(req, BudgetRequestSchema);
    return json({ initiative: s.work.setBudget(caller, params.ref!, body.budgetUsd) });
  });
  r.on("GET", "/v1/initiatives/:ref/diff", async ({ params, caller }) => json({ diff: await s.work.diff(caller, params.ref!) }));
  r.on("POST", "/v1/approve", async ({ req, caller }) => json(s.work.approve(caller, await readJson(req, ApproveRequestSchema))));
  r.on("GET", "/v1/work/:ref", ({ params, caller }) => json(s.work.item(caller, params.ref!)));
  r.on("PATCH", "/v1/work/:ref", async ({ req, params, caller }) => json(s.work.edit(caller, params.ref!, await readJson(req, EditRequestSchema))));
  r.on("POST", "/v1/work/:ref/reject", async ({ req, params, caller }) => {
    const body = await readJson(req, RejectRequestSchema);
    return json(await s.work.reject(caller, params.ref!, body));
  });
  r.on("POST", "/v1/initiatives/:ref/dispatch", async ({ req, params, caller }) => {
    const body = await readJson(req, DispatchRequestSchema);
    return json({ initiative: await s.work.dispatch(caller, params.ref!, body) });
  });
  r.on("DELETE", "/v1/initiatives/:ref/dispatch", ({ params, caller }) => json({ initiative: s.work.stopDispatch(caller, params.ref!) }));
  r.on("POST", "/v1/tasks/:ref/retry", ({ params, caller }) => json({ task: s.work.retry(caller, params.ref!) }));
}
