import type { Caller } from "../agents/caller.ts";
import type { Store } from "../store/index.ts";
import { authorize, type Action, type Target } from "./policy.ts";

/** `authorize` over the store's lineage: what every service method calls before it acts. */
export type Guard = (caller: Caller, action: Action, target?: Target | null) => void;

export function guardOver(store: Store): Guard {
  const parentOf = (id: string) => store.agents.parentOf(id);
  return (caller, action, target = null) => authorize(caller, action, target, parentOf);
}
