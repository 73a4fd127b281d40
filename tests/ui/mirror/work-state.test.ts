import { describe, expect, test } from "bun:test";
import { entitiesReducer, initialEntities } from "../../../src/ui/mirror/entities-state.ts";
import { attentionItems } from "../../../src/ui/mirror/attention.ts";
import { initialWork, workEvents, workSnapshot } from "../../../src/ui/mirror/work-state.ts";
import { phaseRows, rowContent } from "../../../src/ui/phases/phase-rows.ts";
import { makeAgent, makeInitiative, makePhase, makeTask } from "../helpers/fake-client.ts";

describe("work state", () => {
  test("events create, update and remove; an older version never replaces a newer one", () => {
    const i = makeInitiative();
    const p = makePhase(i);
    let s = workEvents(initialWork, [
      { type: "initiative:created", initiative: i },
      { type: "phase:created", phase: p },
      { type: "phase:updated", phase: { ...p, status: "approved", version: 3 } },
      { type: "phase:updated", phase: { ...p, status: "rejected", version: 2 } },
    ]);
    expect(s.phases[p.id]!.status).toBe("approved");
    const t = makeTask(p);
    s = workEvents(s, [{ type: "task:created", task: t }, { type: "task:removed", taskId: t.id }, { type: "phase:removed", phaseId: p.id }]);
    expect(s.tasks).toEqual({});
    expect(s.phases).toEqual({});
    expect(s.initiatives[i.id]).toEqual(i);
  });

  test("a batch that changes nothing keeps the state itself (no re-render)", () => {
    const p = makePhase(makeInitiative(), { version: 5 });
    const s = workEvents(initialWork, [{ type: "phase:created", phase: p }]);
    expect(workEvents(s, [{ type: "phase:updated", phase: { ...p, title: "old", version: 4 } }, { type: "task:removed", taskId: "tk_none" }])).toBe(s);
  });

  test("a snapshot says what exists, but an event newer than its copy wins", () => {
    const i = makeInitiative();
    const p = makePhase(i);
    const gone = makePhase(i);
    let s = workEvents(initialWork, [
      { type: "phase:created", phase: gone },
      { type: "phase:updated", phase: { ...p, status: "approved", version: 2 } },
    ]);
    s = workSnapshot(s, { initiatives: [i], phases: [p], tasks: [] });
    expect(s.phases[p.id]!.status).toBe("approved");
    expect(s.phases[gone.id]).toBeUndefined();
  });

  test("the entities reducer follows work events and a snapshot with work; proposals need the person", () => {
    const i = makeInitiative();
    const p = makePhase(i, { status: "proposed" });
    let s = entitiesReducer(initialEntities, { type: "snapshot", agents: [], conversations: [], work: { initiatives: [i], phases: [p], tasks: [] } });
    expect([...attentionItems(s).keys()]).toEqual([`phase:${p.id}`]);
    s = entitiesReducer(s, { type: "events", events: [{ type: "phase:updated", phase: { ...p, status: "approved", version: 2 } }] });
    expect([...attentionItems(s).keys()]).toEqual([]);
    const t = makeTask(p, { status: "proposed" });
    s = entitiesReducer(s, { type: "events", events: [{ type: "task:created", task: t }, { type: "initiative:updated", initiative: { ...i, proposedGoal: "better", version: 2 } }] });
    expect([...attentionItems(s).keys()].sort()).toEqual([`initiative:${i.id}`, `task:${t.id}`].sort());
    // A snapshot without work (not fetched) keeps what is held.
    expect(entitiesReducer(s, { type: "snapshot", agents: [], conversations: [] }).work).toBe(s.work);
  });
});

describe("phase rows", () => {
  test("a tree: proposals first, dependencies by slug, tasks with their agent; collapsed rows hide children", () => {
    const i = makeInitiative({ slug: "shop" });
    const a = makePhase(i, { slug: "schema", status: "approved" });
    const b = makePhase(i, { slug: "api", status: "proposed", dependsOn: [a.id] });
    const agent = makeAgent({ name: "brave-otter" });
    const t1 = makeTask(a, { slug: "tables", status: "in_progress", agentId: agent.id });
    const t2 = makeTask(a, { slug: "indexes", dependsOn: [t1.id] });
    const work = workSnapshot(initialWork, { initiatives: [i], phases: [a, b], tasks: [t1, t2] });
    const rows = phaseRows(work, { [agent.id]: agent }, []);
    expect(rows.map((r) => r.key)).toEqual([i.id, b.id, a.id, t1.id, t2.id]);
    expect(rows[1]).toMatchObject({ kind: "phase", needs: true, after: ["schema"] });
    expect(rows[3]).toMatchObject({ kind: "task", agent: "brave-otter" });
    expect(rows[4]).toMatchObject({ kind: "task", after: ["tables"] });
    expect(phaseRows(work, {}, [a.id]).map((r) => r.key)).toEqual([i.id, b.id, a.id]);
    expect(phaseRows(work, {}, [i.id]).map((r) => r.key)).toEqual([i.id]);
    expect(rowContent(rows[1]!)).toContain("after: schema");
  });

  test("archived initiatives do not show; one holding a proposal sorts first", () => {
    const old = makeInitiative({ status: "archived" });
    const quiet = makeInitiative();
    const busy = makeInitiative();
    const p = makePhase(busy, { status: "proposed" });
    const work = workSnapshot(initialWork, { initiatives: [old, quiet, busy], phases: [p], tasks: [] });
    expect(phaseRows(work, {}, []).map((r) => r.key)).toEqual([busy.id, p.id, quiet.id]);
  });

  test("a task's content holds its description, summary and conflicts", () => {
    const i = makeInitiative();
    const p = makePhase(i);
    const t = makeTask(p, { status: "blocked", description: "do x", summary: "did most of x", conflicts: ["src/a.ts"], reason: "merge conflict" });
    const rows = phaseRows(workSnapshot(initialWork, { initiatives: [i], phases: [p], tasks: [t] }), {}, []);
    const text = rowContent(rows.find((r) => r.key === t.id)!).join("\n");
    for (const s of ["do x", "did most of x", "conflicts: src/a.ts", "reason: merge conflict"]) expect(text).toContain(s);
  });
});
