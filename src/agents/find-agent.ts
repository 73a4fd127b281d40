import { TroupeError } from "../errors.ts";
import type { AgentRecord, Store } from "../store/index.ts";

/** The record by id or name (what authorization looks at); `agent_not_found` otherwise. */
export function findAgent(store: Store, ref: string): AgentRecord {
  const rec = store.agents.find(ref);
  if (!rec) throw new TroupeError("agent_not_found", `no agent '${ref}'`);
  return rec;
}
