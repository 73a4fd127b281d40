import { useEffect, useSyncExternalStore } from "react";
import type { Agent } from "../../protocol/entities.ts";
import type { AgentOutput, OutputStore } from "../mirror/output-store.ts";

/**
 * The selected agent's output buffer, re-rendering as it grows. Loading its history is an
 * effect, never a side effect of rendering: render only reads what the store holds.
 */
export function useAgentOutput(store: OutputStore, agent: Agent | null): AgentOutput | null {
  useSyncExternalStore(store.publisher.subscribe, store.publisher.getVersion);
  const id = agent?.id ?? null;
  const provider = agent?.provider ?? null;
  useEffect(() => {
    if (id === null || provider === null) return;
    const had = store.get(id);
    store.ensure(id, provider);
    if (!had) store.publisher.flush(); // draw its "loading" state now

  }, [store, id, provider]);
  return id !== null ? (store.get(id) ?? null) : null;
}
