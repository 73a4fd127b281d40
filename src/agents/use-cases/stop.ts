import type { Agent } from "../../protocol/entities.ts";
import { toAgent } from "../../store/agents.ts";
import { findAgent } from "../find-agent.ts";
import type { AgentParts } from "../runtime.ts";

type StopParts = Pick<AgentParts, "store" | "bus" | "stopper" | "ends">;

/** `troupe stop`: the agent `stopped`, its processes ended (src/agents/processes/stopper.ts). */
export class StopAgent {
  constructor(private readonly d: StopParts) {}

  /**
   * `stopped` at once; whatever of it lives gets SIGTERM, then SIGKILL at a deadline kept in the
   * store. Repeating it is harmless and reaches whatever still lives (say, a child that setsid'd
   * after the first stop).
   */
  stop(ref: string): Agent {
    const rec = findAgent(this.d.store, ref);
    let updated = rec;
    this.d.stopper.terminate(rec.id, rec.session, () => {
      // a pending retry is called off with the stop
      if (rec.status !== "stopped") updated = this.d.store.agents.update(rec.id, { status: "stopped", retryAt: null });
    });
    if (updated !== rec) {
      this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      this.d.ends.stopped(toAgent(updated));
    }
    return toAgent(updated);
  }
}
