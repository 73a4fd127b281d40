import type { Caller } from "../agents/caller.ts";
import { ENDPOINTS, type Endpoint, type EndpointName, type Rule } from "../protocol/api/index.ts";
import { TroupeError, httpStatus } from "../errors.ts";
import { allows, dependsOnTarget, mayRefuse, refusal, type ParentOf, type Target } from "./policy.ts";

/** How a path parameter leads to the agent a call is about; each throws its `not_found` for an unknown one. */
export interface TargetLookups {
  /** An agent by id or name. */
  agent(ref: string): Target;
  /** A conversation's addressee; null when that is the person. */
  conversation(id: string): Target | null;
  /** The agent that filed a permission request. */
  permission(id: string): Target;
}

/**
 * Every call's authorization, read from the API table: the router asks `endpoint` before it
 * reads the body (an agent refused is never told what was wrong with its body) and `fields`
 * once the body is valid.
 */
export interface Guard {
  /** Throws `forbidden` unless the endpoint's rule lets `caller` act on what `params` name. */
  endpoint(caller: Caller, name: EndpointName, params: Readonly<Record<string, string>>): void;
  /** Throws `forbidden` for a field of `input` that the endpoint keeps to callers `caller` is not. */
  fields(caller: Caller, name: EndpointName, params: Readonly<Record<string, string>>, input: Readonly<Record<string, unknown>>): void;
  /** Whether endpoint `name`'s rule lets `caller` act on `target`: for choices (does a message wake?), not refusals. */
  permits(caller: Caller, name: EndpointName, target: Target | null): boolean;
}

export function guardOver(parentOf: ParentOf, lookups: TargetLookups): Guard {
  /** The agent the call is about (its one path parameter), looked up only when a rule needs it. */
  const targetOf = (e: Endpoint, params: Readonly<Record<string, string>>): Target | null => {
    if (!e.target) return null;
    const value = params[Object.keys(e.params ?? {})[0] ?? ""];
    return value === undefined ? null : lookups[e.target](value);
  };
  /** The target for a refusal's words only: one that does not exist is named as the caller named it. */
  const namedIn = (e: Endpoint, params: Readonly<Record<string, string>>): Target | null => {
    try {
      return targetOf(e, params);
    } catch (err) {
      if (!(err instanceof TroupeError) || httpStatus(err.code) !== 404) throw err;
      const value = params[Object.keys(e.params ?? {})[0] ?? ""] ?? "";
      return { id: value, name: value };
    }
  };
  const check = (caller: Caller, rule: Rule, does: string, e: Endpoint, params: Readonly<Record<string, string>>) => {
    if (!mayRefuse(rule, caller)) return;
    // a rule that refuses this caller whatever the target is decided before the target is looked
    // up: an agent learns nothing of what exists (404) where it may not act at all (403)
    if (!dependsOnTarget(rule)) {
      if (!allows(rule, caller, null, parentOf)) throw refusal(caller, rule, does, namedIn(e, params));
      return;
    }
    const target = targetOf(e, params);
    if (!allows(rule, caller, target, parentOf)) throw refusal(caller, rule, does, target);
  };
  return {
    endpoint(caller, name, params) {
      const e: Endpoint = ENDPOINTS[name];
      check(caller, e.rule, e.does, e, params);
    },
    fields(caller, name, params, input) {
      const e: Endpoint = ENDPOINTS[name];
      for (const [field, { rule, does }] of Object.entries(e.fields ?? {})) {
        if (input[field] !== undefined) check(caller, rule, does, e, params);
      }
    },
    permits(caller, name, target) {
      return allows(ENDPOINTS[name].rule, caller, target, parentOf);
    },
  };
}
