import type { ModeRunRequest } from "../protocol/api-work.ts";
import type { Agent } from "../protocol/entities.ts";
import type { AgentMode } from "../protocol/work.ts";
import type { EndpointMethods } from "./client.ts";

/** Starts an agent of `mode` on an initiative (discuss, plan, refine) or a phase (detail). */
export function runMode(client: Pick<EndpointMethods, Exclude<AgentMode, "execute">>, mode: Exclude<AgentMode, "execute">, ref: string, req: ModeRunRequest): Promise<Agent> {
  return client[mode](ref, req);
}

