import { describe, expect, test } from "bun:test";
import { guardOver, type TargetLookups } from "../../src/services/guard.ts";
import type { Caller } from "../../src/agents/caller.ts";
import type { AgentRecord } from "../../src/store/agents.ts";
import { TroupeError } from "../../src/errors.ts";

const agent = (id: string): Caller => ({ kind: "agent", agent: { id, name: id } as AgentRecord });
const person: Caller = { kind: "user" };
// a → b; x alone
const parents: Record<string, string | null> = { a: null, b: "a", x: null };

function guard() {
  const looked: string[] = [];
  const lookups: TargetLookups = {
    agent: (ref) => {
      looked.push(`agent ${ref}`);
      if (!(ref in parents)) throw new TroupeError("agent_not_found", `no agent '${ref}'`);
      return { id: ref, name: ref };
    },
    conversation: (id) => (looked.push(`conversation ${id}`), id === "to-person" ? null : { id: "b", name: "b" }),
    permission: (id) => (looked.push(`permission ${id}`), { id: "b", name: "b" }),
  };
  return { g: guardOver((id) => parents[id] ?? null, lookups), looked };
}

describe("the guard reads the API table", () => {
  test("a rule that cannot refuse the caller looks nothing up", () => {
    const { g, looked } = guard();
    g.endpoint(agent("x"), "agent", { ref: "b" });
    g.endpoint(person, "stop", { ref: "b" });
    g.endpoint(person, "decidePermission", { id: "p1" });
    expect(looked).toEqual([]);
  });

  test("lineage and addressee look up their target; a refusal names it", () => {
    const { g, looked } = guard();
    g.endpoint(agent("a"), "stop", { ref: "b" });
    expect(() => g.endpoint(agent("x"), "stop", { ref: "b" })).toThrow("x may not stop b: an agent may act only on itself and on the agents it started");
    g.endpoint(agent("b"), "answer", { id: "c1" });
    expect(() => g.endpoint(agent("a"), "answer", { id: "to-person" })).toThrow("a may not answer a conversation addressed to the person");
    expect(() => g.endpoint(agent("a"), "decidePermission", { id: "p1" })).toThrow("a may not decide a permission request of b: only the person may");
    expect(looked).toEqual(["agent b", "agent b", "conversation c1", "conversation to-person", "permission p1"]);
  });

  test("an unknown target is not found before it is forbidden, as the service would say", () => {
    const { g } = guard();
    expect(() => g.endpoint(agent("x"), "stop", { ref: "nobody" })).toThrow("no agent 'nobody'");
  });

  test("a field some callers alone may set is checked only when it is set", () => {
    const { g } = guard();
    g.fields(agent("a"), "resume", { ref: "b" }, { message: "go on" });
    expect(() => g.fields(agent("a"), "resume", { ref: "b" }, { env: {} })).toThrow("a may not set the environment of b: only the person may");
    g.fields(person, "resume", { ref: "b" }, { env: { PATH: "/bin" } });
  });

  test("permits answers without refusing (does a message wake its addressee?)", () => {
    const { g } = guard();
    expect(g.permits(agent("a"), "resume", { id: "b", name: "b" })).toBe(true);
    expect(g.permits(agent("x"), "resume", { id: "b", name: "b" })).toBe(false);
    expect(g.permits(person, "resume", { id: "b", name: "b" })).toBe(true);
  });
});
