import { ModeRunRequestSchema } from "../../protocol/api-work.ts";
import { TroupeError } from "../../errors.ts";
import { AgentModeSchema, type AgentMode } from "../../protocol/work.ts";
import type { Services } from "../../services/services.ts";
import { json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

/** Mode runs: `POST /v1/initiatives/:ref/{discuss,plan,refine}`, `POST /v1/phases/:ref/detail`; `GET /v1/prompts/:mode?ref=&provider=`. */
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
  r.on("GET", "/v1/prompts/:mode", ({ url, params, caller }) => {
    const mode = AgentModeSchema.safeParse(params.mode);
    if (!mode.success) throw new TroupeError("bad_request", `no mode '${params.mode}' (${AgentModeSchema.options.join(", ")})`);
    const provider = url.searchParams.get("provider") ?? "claude";
    const ref = url.searchParams.get("ref");
    const { prompt, blocks } = s.modes.prompt(caller, mode.data, ref, provider);
    return json({ mode: mode.data, provider, placeholder: ref === null, prompt, blocks });
  });
}
