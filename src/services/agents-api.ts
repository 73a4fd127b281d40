import type { AgentUnits } from "../agents/compose.ts";
import type { ProfileCatalog } from "../profiles/catalog.ts";
import { resolveSpawn } from "../profiles/resolve.ts";
import { MAX_WAIT_MS } from "../conversations/service.ts";
import type { EventBus } from "../events/bus.ts";
import type { AGENT_ENDPOINTS } from "../protocol/api/agents.ts";
import { isLive } from "../protocol/status.ts";
import type { HandlersOf } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The use cases the agents' endpoints call. */
export type AgentsApiUnits = Pick<AgentUnits, "query" | "spawn" | "stop" | "resume" | "remove" | "attach" | "signal">;

/** The agents' endpoints, each over its use case (the guard has let the caller through). */
export function agentsApi(agents: AgentsApiUnits, profiles: ProfileCatalog, bus: EventBus, waits: PurposefulWaits): HandlersOf<typeof AGENT_ENDPOINTS> {
  const { query } = agents;
  return {
    listAgents: () => query.list(),
    agent: (_caller, { ref }) => query.get(ref),
    spawn(caller, req) {
      const resolved = resolveSpawn(profiles, req);
      // an agent's spawn is its child
      return agents.spawn.spawn(resolved.req, caller.kind === "agent" ? caller.agent.id : null, null, resolved.role);
    },
    stop: (_caller, { ref }) => agents.stop.stop(ref),
    resume: (_caller, { ref, ...req }) => agents.resume.resume(ref, req),
    remove: (_caller, { ref, force }) => agents.remove.remove(ref, { force }),
    attach: (_caller, { ref }) => agents.attach.attach(ref),
    attachStarted: (_caller, { ref, session, pid }) => agents.attach.attachStarted(ref, session, pid),
    detach: (_caller, { ref, session, exitCode }) => agents.attach.detach(ref, session, exitCode),
    output: (_caller, { ref, ...q }) => query.output(ref, q),
    agentDiff: (_caller, { ref }) => query.diff(ref),
    async waitAgent(caller, { ref, wait }, signal) {
      const now = query.get(ref);
      const waitMs = wait ?? 0;
      if (!isLive(now.status) || waitMs <= 0) return now;
      // subscribed in the same turn as the read above: an end in between cannot be missed
      await waits.during(caller, () =>
        bus.waitFor(
          ({ event: e }) => (e.type === "agent:updated" && e.agent.id === now.id && !isLive(e.agent.status)) || (e.type === "agent:removed" && e.agentId === now.id) || null,
          Math.min(waitMs, MAX_WAIT_MS),
          signal,
        ),
      );
      // as it is now (a removed one is agent_not_found)
      return query.get(now.id);
    },
    signal(caller, signal) {
      // the guard lets only an agent through; it signals as itself, whatever it names
      if (caller.kind === "agent") agents.signal.signal(caller.agent, signal);
    },
  };
}
