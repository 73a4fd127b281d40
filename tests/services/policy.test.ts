import { describe, expect, test } from "bun:test";
import { ENDPOINTS, ROWS } from "../../src/protocol/api/index.ts";
import { allows, isAncestor, mayRefuse, refusal, type ParentOf } from "../../src/services/policy.ts";
import type { Caller } from "../../src/agents/caller.ts";
import type { AgentRecord } from "../../src/store/agents.ts";

const agent = (id: string): Caller => ({ kind: "agent", agent: { id, name: id } as AgentRecord });
const person: Caller = { kind: "user" };
// a → b → c; x alone
const parents: Record<string, string | null> = { a: null, b: "a", c: "b", x: null };
const parentOf: ParentOf = (id) => parents[id] ?? null;

describe("the authorization policy", () => {
  test("what only the person may do: stop the daemon, clean up worktrees, set a resume's environment, name an agent's account, attach to an agent, decide tool permissions, decide the work, add and run flows, the accounts, the pool of hosts, review an agent's diff, push and open pull requests", () => {
    const personOnly = [
      ...ROWS.filter(([, e]) => e.rule === "person").map(([name]) => name),
      ...ROWS.flatMap(([name, e]) => Object.entries(e.fields ?? {}).filter(([, f]) => f.rule === "person").map(([field]) => `${name}.${field}`)),
    ];
    expect(personOnly.sort()).toEqual([
      "accounts",
      "addAccount",
      "addFlow",
      "addReviewComment",
      "addReviewComments",
      "approve",
      "archiveInitiative",
      "attach",
      "attachStarted",
      "createInitiative",
      "decidePermission",
      "deleteReviewComment",
      "detach",
      "disableFlow",
      "dispatch",
      "edit",
      "editReviewComment",
      "enableFlow",
      "gc",
      "host",
      "hosts",
      "initiativePullRequest",
      "markRead",
      "messages",
      "pin",
      "pullRequest",
      "push",
      "pushInitiative",
      "reject",
      "removeAccount",
      "removeFlow",
      "resetAccount",
      "resume.env",
      "retry",
      "review",
      "runFlow",
      "sendReview",
      "setInitiativeBudget",
      "spawn.account",
      "stopDaemon",
      "stopDispatch",
    ]);
    for (const [, e] of ROWS.filter(([, e]) => e.rule === "person")) {
      expect(allows(e.rule, person, { id: "c", name: "c" }, parentOf)).toBe(true);
      expect(allows(e.rule, agent("a"), { id: "c", name: "c" }, parentOf)).toBe(false);
    }
  });

  test("what only an agent may do, as itself: signal, file a permission request", () => {
    expect(ROWS.filter(([, e]) => e.rule === "agent").map(([name]) => name).sort()).toEqual(["filePermission", "signal"]);
    expect(allows("agent", person, null, parentOf)).toBe(false);
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

  test("only the rules that can refuse a caller are looked at (the person is refused only what is an agent's)", () => {
    expect((["anyone", "person", "agent", "lineage", "addressee"] as const).filter((r) => mayRefuse(r, person))).toEqual(["agent"]);
    expect((["anyone", "person", "agent", "lineage", "addressee"] as const).filter((r) => mayRefuse(r, agent("a")))).toEqual(["person", "lineage", "addressee"]);
  });

  test("a refusal names the caller, what it tried and the rule", () => {
    expect(refusal(agent("x"), "lineage", ENDPOINTS.stop.does, { id: "c", name: "c" }).message).toBe("x may not stop c: an agent may act only on itself and on the agents it started");
    expect(refusal(person, "agent", ENDPOINTS.signal.does, null).message).toBe("the person (no TROUPE_AGENT_TOKEN) may not signal: only an agent may, for itself");
  });
});
