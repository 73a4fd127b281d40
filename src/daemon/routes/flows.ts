import { FlowAddRequestSchema } from "../../protocol/flow.ts";
import type { Services } from "../../services/services.ts";
import { json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

export function flowRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/flows", ({ caller }) => json({ flows: s.flows.list(caller) }));
  r.on("POST", "/v1/flows", async ({ req, caller }) => json({ flow: s.flows.add(caller, await readJson(req, FlowAddRequestSchema)) }, 201));
  r.on("GET", "/v1/flows/:ref", ({ params, caller }) => json({ flow: s.flows.get(caller, params.ref!) }));
  r.on("DELETE", "/v1/flows/:ref", ({ params, caller }) => {
    s.flows.remove(caller, params.ref!);
    return json({ ok: true });
  });
  r.on("POST", "/v1/flows/:ref/enable", ({ params, caller }) => json({ flow: s.flows.setEnabled(caller, params.ref!, true) }));
  r.on("POST", "/v1/flows/:ref/disable", ({ params, caller }) => json({ flow: s.flows.setEnabled(caller, params.ref!, false) }));
  r.on("POST", "/v1/flows/:ref/run", async ({ params, caller }) => json(await s.flows.run(caller, params.ref!)));
}
