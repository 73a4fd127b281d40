import { describe, expect, test } from "bun:test";
import { assertAcyclic, depths, findCycle, heights, readyOrder, resolveRefs, type Node, type Scope } from "../../src/work/dag.ts";

const n = (id: string, ...dependsOn: string[]): Node => ({ id, label: id, dependsOn });

describe("findCycle", () => {
  const cases: [string, Node[], string[] | null][] = [
    ["no nodes", [], null],
    ["a chain", [n("a"), n("b", "a"), n("c", "b")], null],
    ["a diamond", [n("a"), n("b", "a"), n("c", "a"), n("d", "b", "c")], null],
    ["a self-dependency", [n("a", "a")], ["a", "a"]],
    ["two nodes", [n("a", "b"), n("b", "a")], ["a", "b", "a"]],
    ["a cycle behind a root", [n("root"), n("x", "root", "z"), n("y", "x"), n("z", "y")], ["x", "z", "y", "x"]],
    ["an edge to a node outside the set is not a cycle", [n("a", "elsewhere")], null],
  ];
  for (const [name, nodes, cycle] of cases) test(name, () => expect(findCycle(nodes)).toEqual(cycle));

  test("assertAcyclic names the cycle", () => {
    expect(() => assertAcyclic([n("api", "db"), n("db", "ui"), n("ui", "api")], "phase")).toThrow("phase dependencies form a cycle: api → db → ui → api");
  });
});

describe("resolveRefs", () => {
  const scope: Scope = {
    local: new Map([
      ["setup", "ph_1"],
      ["ph_1", "ph_1"],
      ["api", "ph_2"],
    ]),
    elsewhere: (ref) => (ref === "other/setup" || ref === "ph_9" ? "initiative other" : null),
    kind: "phase",
    where: "initiative shop",
  };
  const cases: [string, string[], string[] | string][] = [
    ["slugs and ids to ids", ["setup", "api"], ["ph_1", "ph_2"]],
    ["the same dependency twice counts once", ["setup", "ph_1"], ["ph_1"]],
    ["an unknown dependency is named", ["nope"], "phase ui depends on 'nope': no such phase in initiative shop"],
    ["a dependency across initiatives is refused", ["other/setup"], "phase ui depends on 'other/setup', a phase of initiative other: dependencies stay within initiative shop"],
    ["an id of another initiative too", ["ph_9"], "phase ui depends on 'ph_9', a phase of initiative other: dependencies stay within initiative shop"],
  ];
  for (const [name, deps, want] of cases) {
    test(name, () => {
      const run = () => resolveRefs([{ id: "ph_3", label: "ui", dependsOn: deps }], scope)[0]!.dependsOn;
      if (typeof want === "string") expect(run).toThrow(want);
      else expect(run()).toEqual(want);
    });
  }
});

describe("readiness", () => {
  const item = (id: string, createdAt: number, ...dependsOn: string[]) => ({ id, createdAt, dependsOn });
  const items = [item("late-root", 5), item("root", 1), item("mid", 2, "root"), item("leaf", 0, "mid"), item("side", 3, "root")];

  test("depth is one more than the deepest dependency", () => {
    expect(Object.fromEntries(depths(items))).toEqual({ "late-root": 0, root: 0, mid: 1, leaf: 2, side: 1 });
  });

  test("height is one more than the tallest dependent: the chain still to run after it", () => {
    expect(Object.fromEntries(heights(items))).toEqual({ "late-root": 0, root: 2, mid: 1, leaf: 0, side: 0 });
  });

  const cases: [string, string[], string[]][] = [
    ["nothing completed: the roots, the one with a chain behind it first", [], ["root", "late-root"]],
    ["root completed: the one with a dependent first, then by depth, then by age", ["root"], ["mid", "late-root", "side"]],
    ["all but the leaf", ["root", "late-root", "mid", "side"], ["leaf"]],
  ];
  for (const [name, completed, want] of cases) {
    test(name, () => {
      const done = new Set(completed);
      const ready = readyOrder(items, (i) => !done.has(i.id), (id) => done.has(id));
      expect(ready.map((i) => i.id)).toEqual(want);
    });
  }

  test("a long chain starts before older work nothing waits for", () => {
    const chain = [item("a", 1), item("b", 2), item("c", 3), item("long", 9), item("long2", 10, "long"), item("long3", 11, "long2")];
    expect(readyOrder(chain, () => true, () => false).map((i) => i.id)).toEqual(["long", "a", "b", "c"]);
  });

  test("an item not waiting (not approved, already running) is never ready", () => {
    expect(readyOrder(items, (i) => i.id === "mid", () => false)).toEqual([]);
    expect(readyOrder(items, (i) => i.id === "mid", (id) => id === "root").map((i) => i.id)).toEqual(["mid"]);
  });
});
