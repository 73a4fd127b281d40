import { useSyncExternalStore } from "react";
import type { Agent } from "../../protocol/entities.ts";
import type { AgentOutput, OutputStore } from "../output-store.ts";

/** The selected agent's output buffer (loading its history the first time), re-rendering as it grows. */
export function useAgentOutput(store: OutputStore, agent: Agent | null): AgentOutput | null {
  useSyncExternalStore(store.publisher.subscribe, store.publisher.getVersion);
  return agent ? store.ensure(agent.id, agent.provider) : null;
}
