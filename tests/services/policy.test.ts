import { describe, expect, test } from "bun:test";
import { POLICY, allows, authorize, isAncestor, type ParentOf } from "../../src/services/policy.ts";
import type { Caller } from "../../src/agents/caller.ts";
import type { AgentRecord } from "../../src/store/agents.ts";

const agent = (id: string): Caller => ({ kind: "agent", agent: { id, name: id } as AgentRecord });
const person: Caller = { kind: "user" };
// a → b → c; x alone
const parents: Record<string, string | null> = { a: null, b: "a", c: "b", x: null };
const parentOf: ParentOf = (id) => parents[id] ?? null;

describe("the authorization policy", () => {
  test("what only the person may do: stop the daemon, clean up worktrees, set a resume's environment, name an agent's account, attach to an agent, decide tool permissions, decide the work, add and run flows, the accounts", () => {
    const personOnly = Object.entries(POLICY).filter(([, [rule]]) => rule === "person").map(([action]) => action);
    expect(personOnly.sort()).toEqual([
      "accounts.add",
      "accounts.list",
      "accounts.remove",
      "accounts.reset",
      "agents.attach",
      "agents.resume.env",
      "agents.spawn.account",
      "daemon.gc",
      "daemon.stop",
      "flows.add",
      "flows.enable",
      "flows.remove",
      "flows.run",
      "initiatives.archive",
      "initiatives.budget",
      "initiatives.create",
      "messages.read",
      "messages.unread",
      "permissions.decide",
      "work.approve",
      "work.dispatch",
      "work.edit",
      "work.reject",
      "work.retry",
    ]);
    for (const action of personOnly) {
      expect(allows(POLICY[action as keyof typeof POLICY][0], person, { id: "c", name: "c" }, parentOf)).toBe(true);
      expect(allows(POLICY[action as keyof typeof POLICY][0], agent("a"), { id: "c", name: "c" }, parentOf)).toBe(false);
    }
  });

  test("lineage: itself and its descendants, transitively; not its parent, not another family", () => {
    const stop = (who: string, target: string) => allows("lineage", agent(who), { id: target, name: target }, parentOf);
    expect([stop("c", "c"), stop("b", "c"), stop("a", "c")]).toEqual([true, true, true]);
    expect([stop("c", "b"), stop("x", "c"), stop("c", "x")]).toEqual([false, false, false]);
  });

  test("a damaged lineage with a cycle ends the walk", () => {
    const cyclic: ParentOf = (id) => ({ p: "q", q: "p" })[id] ?? null;
    expect(isAncestor("z", "p", cyclic)).toBe(false);
  });

  test("a refusal names the caller, what it tried and the rule", () => {
    expect(() => authorize(agent("x"), "agents.stop", { id: "c", name: "c" }, parentOf)).toThrow("x may not stop c: an agent may act only on itself and on the agents it started");
    expect(() => authorize(person, "agents.signal", null, parentOf)).toThrow("the person (no TROUPE_AGENT_TOKEN) may not signal: only an agent may, for itself");
  });
});
