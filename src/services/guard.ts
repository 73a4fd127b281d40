import type { Caller } from "../agents/caller.ts";
import type { Store } from "../store/index.ts";
import { allows, authorize, POLICY, type Action, type Target } from "./policy.ts";

/** `authorize` over the store's lineage: what every service method calls before it acts. */
export type Guard = (caller: Caller, action: Action, target?: Target | null) => void;

export function guardOver(store: Store): Guard {
  const parentOf = (id: string) => store.agents.parentOf(id);
  return (caller, action, target = null) => authorize(caller, action, target, parentOf);
}

/** Whether the table lets `caller` do `action` to `target`: for choices (does a message wake?), not refusals. */
export type Permits = (caller: Caller, action: Action, target: Target | null) => boolean;

export function permitsOver(store: Store): Permits {
  const parentOf = (id: string) => store.agents.parentOf(id);
  return (caller, action, target) => allows(POLICY[action][0], caller, target, parentOf);
}
