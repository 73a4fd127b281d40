import { AttachPidRequestSchema, DetachRequestSchema, ResumeRequestSchema, SignalRequestSchema, SpawnRequestSchema } from "../../protocol/api.ts";
import type { Services } from "../../services/services.ts";
import { intParam, json, readJson } from "../http.ts";
import type { Router } from "../router.ts";

export function agentRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/agents", ({ caller }) => json({ agents: s.agents.list(caller) }));
  r.on("POST", "/v1/agents", async ({ req, caller }) => json({ agent: await s.agents.spawn(caller, await readJson(req, SpawnRequestSchema)) }, 201));
  r.on("GET", "/v1/agents/:ref", ({ params, caller }) => json({ agent: s.agents.get(caller, params.ref!) }));
  r.on("DELETE", "/v1/agents/:ref", async ({ params, url, caller }) => {
    // ?force: uncommitted changes are saved as a commit on the agent's branch, then removed
    await s.agents.remove(caller, params.ref!, { force: url.searchParams.has("force") });
    return json({ ok: true });
  });
  r.on("POST", "/v1/agents/:ref/stop", ({ params, caller }) => json({ agent: s.agents.stop(caller, params.ref!) }));
  r.on("POST", "/v1/agents/:ref/resume", async ({ req, params, caller }) => {
    const body = await readJson(req, ResumeRequestSchema);
    return json({ agent: await s.agents.resume(caller, params.ref!, body) });
  });
  // the person takes the agent over on their terminal: the command to run, then its pid, then its end
  r.on("POST", "/v1/agents/:ref/attach", async ({ params, caller }) => json({ attachment: await s.agents.attach(caller, params.ref!) }));
  r.on("POST", "/v1/agents/:ref/attach/pid", async ({ req, params, caller }) => {
    const body = await readJson(req, AttachPidRequestSchema);
    return json({ agent: s.agents.attachStarted(caller, params.ref!, body.session, body.pid) });
  });
  r.on("POST", "/v1/agents/:ref/detach", async ({ req, params, caller }) => {
    const body = await readJson(req, DetachRequestSchema);
    return json({ agent: await s.agents.detach(caller, params.ref!, body.session, body.exitCode) });
  });
  r.on("GET", "/v1/agents/:ref/output", ({ params, url, caller }) => {
    const q = { after: intParam(url, "after"), before: intParam(url, "before"), session: intParam(url, "session"), limit: intParam(url, "limit") };
    return json({ chunks: s.agents.output(caller, params.ref!, q) });
  });
  // a long poll (≤ 60 s a request): the agent once it is no longer live; clients ask again to wait longer
  r.on("GET", "/v1/agents/:ref/wait", async ({ params, url, req, caller }) => {
    return json({ agent: await s.agents.wait(caller, params.ref!, intParam(url, "wait") ?? 0, req.signal) });
  });
  r.on("POST", "/v1/signal", async ({ req, caller }) => {
    s.agents.signal(caller, await readJson(req, SignalRequestSchema));
    return json({ ok: true });
  });
}
