import { AnswerRequestSchema, AskRequestSchema, ResumeRequestSchema, SignalRequestSchema, SpawnRequestSchema } from "../protocol/api.ts";
import { TroupeError } from "../errors.ts";
import { toAgent } from "../store/agents.ts";
import { BUILD_VERSION } from "../self.ts";
import type { Store } from "../store/index.ts";
import type { AgentService } from "../agents/service.ts";
import { readSignalFile } from "../agents/signal-file.ts";
import type { ConversationService } from "./conversations.ts";
import type { EventBus, Published } from "../events/bus.ts";
import { sseStream } from "./sse.ts";
import { intParam, json, readJson } from "./http.ts";
import { Router } from "./router.ts";

export interface RouteDeps {
  store: Store;
  agents: AgentService;
  conversations: ConversationService;
  bus: EventBus;
  workspace: string;
  startedAt: number;
  shutdown: () => void;
}

/** Most events replayed to a reconnecting subscriber; further behind, it gets a resync. */
const REPLAY_LIMIT = 5000;

export function buildRouter(d: RouteDeps): Router {
  const r = new Router();

  r.on("GET", "/v1/health", () => json({ ok: true, pid: process.pid, version: BUILD_VERSION, workspace: d.workspace, startedAt: d.startedAt }));
  r.on("POST", "/v1/daemon/stop", () => {
    setTimeout(d.shutdown, 10);
    return json({ ok: true });
  });

  r.on("GET", "/v1/agents", () => json({ agents: d.store.agents.list().map(toAgent) }));
  r.on("POST", "/v1/agents", async ({ req }) => {
    const body = await readJson(req, SpawnRequestSchema);
    return json({ agent: await d.agents.spawn(body) }, 201);
  });
  r.on("GET", "/v1/agents/:ref", ({ params }) => json({ agent: toAgent(d.agents.find(params.ref!)) }));
  r.on("DELETE", "/v1/agents/:ref", async ({ params }) => {
    await d.agents.remove(params.ref!);
    return json({ ok: true });
  });
  r.on("POST", "/v1/agents/:ref/stop", ({ params }) => json({ agent: d.agents.stopAgent(params.ref!) }));
  r.on("POST", "/v1/agents/:ref/resume", async ({ req, params }) => {
    const body = await readJson(req, ResumeRequestSchema);
    return json({ agent: await d.agents.resume(params.ref!, body) });
  });
  r.on("GET", "/v1/agents/:ref/output", ({ params, url }) => {
    const rec = d.agents.find(params.ref!);
    const q = { after: intParam(url, "after"), before: intParam(url, "before"), session: intParam(url, "session"), limit: intParam(url, "limit") };
    if (q.after !== undefined && q.before !== undefined) throw new TroupeError("bad_request", "give after or before, not both");
    const chunks = d.store.chunks.list(rec.id, q);
    return json({ chunks });
  });

  r.on("POST", "/v1/signal", async ({ req, caller }) => {
    const body = await readJson(req, SignalRequestSchema);
    if (caller.kind !== "agent") throw new TroupeError("forbidden", "only an agent can signal (no TROUPE_AGENT_TOKEN)");
    if (body.signalFile !== caller.agent.signalFile) throw new TroupeError("forbidden", "that is not this agent's signal file");
    const read = readSignalFile(body.signalFile);
    if (read.kind !== "ok") throw new TroupeError("bad_request", `signal file ${read.kind === "missing" ? "missing" : `malformed: ${read.reason}`}`);
    return json({ ok: true });
  });

  r.on("POST", "/v1/conversations", async ({ req, caller }) => {
    const body = await readJson(req, AskRequestSchema);
    return json({ conversation: d.conversations.ask(caller, body) }, 201);
  });
  r.on("GET", "/v1/conversations", ({ url }) => json({ conversations: d.store.conversations.list({ pending: url.searchParams.has("pending") }) }));
  r.on("GET", "/v1/conversations/:id", async ({ params, url, req }) => {
    const wait = intParam(url, "wait") ?? 0;
    return json({ conversation: await d.conversations.wait(params.id!, wait, req.signal) });
  });
  r.on("POST", "/v1/conversations/:id/answer", async ({ req, params, caller }) => {
    const body = await readJson(req, AnswerRequestSchema);
    return json({ conversation: d.conversations.answer(caller, params.id!, body.answer) });
  });
  r.on("GET", "/v1/listen", async ({ url, req, caller }) => {
    const wait = intParam(url, "wait") ?? 0;
    return json({ conversation: await d.conversations.listen(caller, wait, req.signal) });
  });

  r.on("GET", "/v1/events", ({ url }) => {
    const since = intParam(url, "since");
    let backlog: Published[] = since === undefined ? [] : d.store.events.since(since, REPLAY_LIMIT);
    // more missed than we replay, or some already pruned: the client must refetch instead
    if (since !== undefined && (backlog.length === REPLAY_LIMIT || since + 1 < d.store.events.firstId())) {
      backlog = [{ id: null, event: { type: "resync", reason: "too many events missed to replay" } }];
    }
    // ?output=none drops output events, ?output=ID,ID keeps those agents' only (lifecycle events always flow)
    const output = url.searchParams.get("output");
    const wanted = output === null ? null : new Set(output === "none" ? [] : output.split(","));
    const keep = (p: Published) => wanted === null || p.event.type !== "agent:output" || wanted.has(p.event.chunk.agentId);
    const stream = sseStream(backlog, (l) => d.bus.subscribe((p) => keep(p) && l(p)));
    return new Response(stream, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
    });
  });

  return r;
}
