import { ModeRunRequestSchema } from "../../protocol/api-work.ts";
import type { AgentMode } from "../../protocol/work.ts";
import type { Services } from "../../services/services.ts";
import { json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

/** Mode runs: `POST /v1/initiatives/:ref/{discuss,plan,refine}`, `POST /v1/phases/:ref/detail`. */
export function modeRoutes(r: Router, s: Services): void {
  const run = (resource: "initiatives" | "phases", mode: AgentMode) =>
    r.on("POST", `/v1/${resource}/:ref/${mode}`, async ({ req, params, caller }) => {
      const body = await readJson(req, ModeRunRequestSchema);
      return json({ agent: await s.modes.run(caller, mode, params.ref!, body) }, 201);
    });
  run("initiatives", "discuss");
  run("initiatives", "plan");
  run("initiatives", "refine");
  run("phases", "detail");
  r.on("GET", "/v1/initiatives/:ref/decisions", ({ params, caller }) => json({ decisions: s.modes.decisions(caller, params.ref!) }));
}
