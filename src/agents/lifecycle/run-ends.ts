import type { Agent } from "../../protocol/entities.ts";
import type { EventBus } from "../../events/bus.ts";

/** A run that is over: its session ended and the lifecycle's decision left nothing to retry. */
export interface EndedRun {
  /** As the end left it: `done`, `waiting`, `failed` or `stopped`. */
  agent: Agent;
  session: number;
  exitCode: number | null;
}

/** The person's interactive session on the agent ended; the agent is back in `agent.status`. */
export interface DetachedRun {
  agent: Agent;
  session: number;
}

/**
 * What follows an end, beyond the agent runtime: the daemon plugs in the declared sequence
 * (src/services/end-of-run.ts). The agent runtime calls it once per run that is over, after the
 * run's end is recorded and its `agent:updated` published.
 */
export interface RunEnds {
  ended(run: EndedRun): void;
  detached(run: DetachedRun): void;
  /** A session failed with a retry to come: not a run's end (the next attempt follows). */
  retrying(run: EndedRun): void;
  /** The person stopped the agent (`stopped` now; its processes may still be going away). */
  stopped(agent: Agent): void;
  /** The agent's records are gone (`troupe rm`); its workers moved up already. */
  removed(agentId: string): void;
}

/** Only the announcement on the bus: an agent runtime with nothing built around it (a test, a script). */
export function announceOnly(bus: EventBus): RunEnds {
  return {
    ended: (run) => bus.publish({ type: "agent:ended", ...run }),
    detached: (run) => bus.publish({ type: "agent:detached", ...run }),
    retrying: () => {},
    stopped: () => {},
    removed: (agentId) => bus.publish({ type: "agent:removed", agentId }),
  };
}
