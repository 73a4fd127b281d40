import type { AgentService } from "../agents/service.ts";
import type { ProfileCatalog } from "../profiles/catalog.ts";
import { resolveSpawn } from "../profiles/resolve.ts";
import { MAX_WAIT_MS } from "../conversations/service.ts";
import type { EventBus } from "../events/bus.ts";
import { isLive } from "../protocol/status.ts";
import type { Guard } from "./guard.ts";
import type { AgentsApi } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The agent service behind the policy: each method is authorized for its caller, then done. */
export function agentsApi(agents: AgentService, guard: Guard, profiles: ProfileCatalog, bus: EventBus, waits: PurposefulWaits): AgentsApi {
  return {
    list(caller) {
      guard(caller, "agents.list");
      return agents.list();
    },
    get(caller, ref) {
      guard(caller, "agents.get", agents.find(ref));
      return agents.get(ref);
    },
    spawn(caller, req) {
      guard(caller, "agents.spawn");
      if (req.account !== undefined) guard(caller, "agents.spawn.account");
      const resolved = resolveSpawn(profiles, req);
      return agents.spawn(resolved.req, caller.kind === "agent" ? caller.agent.id : null, null, resolved.role);
    },
    stop(caller, ref) {
      guard(caller, "agents.stop", agents.find(ref));
      return agents.stop(ref);
    },
    resume(caller, ref, req) {
      const target = agents.find(ref);
      guard(caller, "agents.resume", target);
      if (req.env) guard(caller, "agents.resume.env", target);
      return agents.resume(ref, req);
    },
    remove(caller, ref, opts) {
      guard(caller, "agents.remove", agents.find(ref));
      return agents.remove(ref, opts);
    },
    attach(caller, ref) {
      guard(caller, "agents.attach", agents.find(ref));
      return agents.attach(ref);
    },
    attachStarted(caller, ref, session, pid) {
      guard(caller, "agents.attach", agents.find(ref));
      return agents.attachStarted(ref, session, pid);
    },
    detach(caller, ref, session, exitCode) {
      guard(caller, "agents.attach", agents.find(ref));
      return agents.detach(ref, session, exitCode);
    },
    output(caller, ref, q) {
      guard(caller, "agents.output", agents.find(ref));
      return agents.output(ref, q);
    },
    async wait(caller, ref, waitMs, signal) {
      guard(caller, "agents.wait", agents.find(ref));
      const now = agents.get(ref);
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
      return agents.get(now.id);
    },
    signal(caller, signal) {
      guard(caller, "agents.signal");
      // the guard lets only an agent through; it signals as itself, whatever it names
      if (caller.kind === "agent") agents.signal(caller.agent, signal);
    },
  };
}
