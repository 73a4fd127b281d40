import type { Agent } from "../../protocol/entities.ts";
import { toAgent } from "../../store/agents.ts";
import type { AgentDeps } from "../deps.ts";

/** `failed`, with why (published): a spawn that could not start, or a mode run whose outputs cannot be used. */
export function failRun(d: Pick<AgentDeps, "store" | "bus">, id: string, error: string): Agent {
  const failed = d.store.agents.update(id, { status: "failed", error });
  d.bus.publish({ type: "agent:updated", agent: toAgent(failed) });
  return toAgent(failed);
}
