import { TroupeError } from "../errors.ts";
import type { Caller } from "../agents/caller.ts";
import type { Rule } from "../protocol/api/index.ts";

/**
 * What a rule of the API table (src/protocol/api/: each endpoint's `rule`, and the `fields` some
 * callers alone may set) lets a caller do. The rules guard against a confused or misbehaving
 * agent, not a hostile process of the same Unix user (see docs/security.md).
 */

/** The agent a call is about (an agent, or a conversation's addressee); null for none or the person. */
export interface Target {
  id: string;
  name: string;
}

/** Each agent's parent (the agent that spawned it), null for one the person spawned. */
export type ParentOf = (agentId: string) => string | null;

/** Whether `ancestor` started `id`, directly or through its children. */
export function isAncestor(ancestor: string, id: string, parentOf: ParentOf): boolean {
  const seen = new Set<string>();
  for (let p = parentOf(id); p !== null && !seen.has(p); p = parentOf(p)) {
    if (p === ancestor) return true;
    seen.add(p);
  }
  return false;
}

/** Whether the rule can refuse `caller` (the person passes all but `agent`; an agent passes `anyone` and `agent`). */
export function mayRefuse(rule: Rule, caller: Caller): boolean {
  return caller.kind === "user" ? rule === "agent" : rule !== "anyone" && rule !== "agent";
}

/** Whether the rule's answer for an agent depends on what the call is about (else it is the same for every target). */
export function dependsOnTarget(rule: Rule): boolean {
  return rule === "lineage" || rule === "addressee";
}

/** Whether the rule lets `caller` act on `target`. */
export function allows(rule: Rule, caller: Caller, target: Target | null, parentOf: ParentOf): boolean {
  if (caller.kind === "user") return rule !== "agent";
  const me = caller.agent.id;
  switch (rule) {
    case "anyone":
    case "agent":
      return true;
    case "person":
      return false;
    case "lineage":
      return target !== null && (target.id === me || isAncestor(me, target.id, parentOf));
    case "addressee":
      return target !== null && target.id === me;
  }
}

const WHY: Record<Rule, string> = {
  anyone: "",
  person: "only the person may",
  agent: "only an agent may, for itself",
  lineage: "an agent may act only on itself and on the agents it started",
  addressee: "an agent may answer only what is addressed to it",
};

/** `forbidden` (403), naming the caller, what it tried (`does`, `$` the target) and the rule. */
export function refusal(caller: Caller, rule: Rule, does: string, target: Target | null): TroupeError {
  const who = caller.kind === "agent" ? caller.agent.name : "the person (no TROUPE_AGENT_TOKEN)";
  return new TroupeError("forbidden", `${who} may not ${does.replace("$", target?.name ?? "the person")}: ${WHY[rule]}`);
}
