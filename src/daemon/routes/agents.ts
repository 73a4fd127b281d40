import { ResumeRequestSchema, SignalRequestSchema, SpawnRequestSchema } from "../../protocol/api.ts";
import type { Services } from "../../services/services.ts";
import { intParam, json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

export function agentRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/agents", () => json({ agents: s.agents.list() }));
  r.on("POST", "/v1/agents", async ({ req }) => json({ agent: await s.agents.spawn(await readJson(req, SpawnRequestSchema)) }, 201));
  r.on("GET", "/v1/agents/:ref", ({ params }) => json({ agent: s.agents.get(params.ref!) }));
  r.on("DELETE", "/v1/agents/:ref", async ({ params }) => {
    await s.agents.remove(params.ref!);
    return json({ ok: true });
  });
  r.on("POST", "/v1/agents/:ref/stop", ({ params }) => json({ agent: s.agents.stop(params.ref!) }));
  r.on("POST", "/v1/agents/:ref/resume", async ({ req, params }) => {
    const body = await readJson(req, ResumeRequestSchema);
    return json({ agent: await s.agents.resume(params.ref!, body) });
  });
  r.on("GET", "/v1/agents/:ref/output", ({ params, url }) => {
    const q = { after: intParam(url, "after"), before: intParam(url, "before"), session: intParam(url, "session"), limit: intParam(url, "limit") };
    return json({ chunks: s.agents.output(params.ref!, q) });
  });
  r.on("POST", "/v1/signal", async ({ req, caller }) => {
    const body = await readJson(req, SignalRequestSchema);
    s.agents.signal(caller, body.signalFile);
    return json({ ok: true });
  });
}
