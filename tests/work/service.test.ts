import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { composeAgents } from "../../src/agents/compose.ts";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { PhaseTreeSchema } from "../../src/protocol/work.ts";
import { createStore, type Store } from "../../src/store/index.ts";
import { WorkService } from "../../src/work/service.ts";
import { Sandbox } from "../support/sandbox.ts";

/** The service on a real store, bus and git repository (no daemon: proposals come in through the sink as the modes code sends them). */
const sb = new Sandbox();
afterAll(() => sb.close());
let n = 0;
let store: Store;
let bus: EventBus;
let work: WorkService;

beforeEach(() => {
  const log = new Logger(join(sb.runtime, "daemon.log"));
  store = createStore(join(sb.runtime, `t${++n}.db`), log);
  bus = new EventBus(store.events, log);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  const agents = composeAgents({ ws, store, bus, log, binDir: sb.runtime });
  work = new WorkService({ root: sb.dir, store, bus, agents: agents.resume });
});

const draft = (slug: string, ...dependsOn: string[]) => ({ slug, title: `Title of ${slug}`, body: `Body of ${slug}`, dependsOn });
const loggedTypes = () => store.events.since(0).map((e) => e.event.type);

describe("initiatives", () => {
  test("a new initiative gets a unique slug and its own branch at the base's commit", async () => {
    const head = sb.git("rev-parse", "HEAD").trim();
    const a = await work.createInitiative({ name: "Checkout v2", goal: "ship it", review: "phases" });
    expect(a).toMatchObject({ slug: "checkout-v2", branch: "troupe-initiative/checkout-v2", baseRef: "main", baseCommit: head, status: "active", version: 1, proposedGoal: null });
    expect(sb.git("rev-parse", "troupe-initiative/checkout-v2").trim()).toBe(head);
    // a branch left by an earlier store takes the slug too
    sb.git("branch", "troupe-initiative/checkout-v2-2", "HEAD");
    const b = await work.createInitiative({ name: "checkout  V2!", goal: "again", review: "phases" });
    expect(b.slug).toBe("checkout-v2-3");
    expect(work.initiative("checkout-v2-3").id).toBe(b.id);
    expect(work.initiative(b.id).slug).toBe("checkout-v2-3");
    expect(loggedTypes()).toEqual(["initiative:created", "initiative:created"]);
  });

  test("creations at once never share a slug", async () => {
    const all = await Promise.all([1, 2, 3].map(() => work.createInitiative({ name: "Race", goal: "g", review: "phases" })));
    expect(all.map((i) => i.slug).sort()).toEqual(["race", "race-2", "race-3"]);
  });

  test("a base that names no commit is refused, and nothing is created", async () => {
    await expect(work.createInitiative({ name: "X", goal: "g", baseRef: "no-such-branch", review: "phases" })).rejects.toThrow("no commit at 'no-such-branch'");
    expect(work.listInitiatives()).toEqual([]);
  });

  test("archive bumps the version and is published; an unknown ref is not_found", async () => {
    const a = await work.createInitiative({ name: "Arch", goal: "g", review: "phases" });
    expect(work.archive("arch")).toMatchObject({ status: "archived", version: 2 });
    expect(() => work.archive("nope")).toThrow("no initiative 'nope'");
    expect(() => work.proposePhases(a.id, null, [draft("x")])).toThrow("initiative arch is archived");
  });
});

describe("proposals", () => {
  test("phases are stored proposed with their dependencies as ids, in one go, and published", async () => {
    const init = await work.createInitiative({ name: "Shop", goal: "g", review: "phases" });
    // listed before what they depend on: stored in dependency order anyway
    const phases = work.proposePhases(init.id, null, [draft("ui", "api"), draft("api", "db"), draft("db")]);
    expect(phases.map((p) => [p.slug, p.status])).toEqual([["ui", "proposed"], ["api", "proposed"], ["db", "proposed"]]);
    const [ui, api, db] = phases;
    expect(ui!.dependsOn).toEqual([api!.id]);
    expect(api!.dependsOn).toEqual([db!.id]);
    expect(loggedTypes().filter((t) => t === "phase:created").length).toBe(3);
    const tree = PhaseTreeSchema.parse(work.tree("shop"));
    expect(tree.phases.map((p) => p.slug)).toEqual(["db", "api", "ui"]);
  });

  test("review none approves phases at once; tasks are pending unless the policy is tasks", async () => {
    const none = await work.createInitiative({ name: "None", goal: "g", review: "none" });
    const [p] = work.proposePhases(none.id, null, [draft("only")]);
    expect(p!.status).toBe("approved");
    expect(work.proposeTasks(p!.id, null, [draft("t")])[0]!.status).toBe("pending");
    const strict = await work.createInitiative({ name: "Strict", goal: "g", review: "tasks" });
    const [q] = work.proposePhases(strict.id, null, [draft("only")]);
    expect(work.proposeTasks("strict/only", null, [draft("t")])[0]!.status).toBe("proposed");
    expect(q!.status).toBe("proposed");
  });

  test("a session's outputs are stored once: a second import of it is refused and changes nothing", async () => {
    const init = await work.createInitiative({ name: "Once", goal: "g", review: "none" });
    const planner = store.agents.insert({
      id: "ag_planner", name: "planner", provider: "generic", prompt: null, command: "true", model: null, cwd: sb.dir, worktree: null,
      branch: null, baseRef: null, permissions: "skip", tokenHash: "x", signalFile: join(sb.runtime, "planner.signal"), mode: "plan", initiativeId: init.id,
    });
    const [p] = work.proposePhases(init.id, planner.id, [draft("a")], 1);
    expect(store.modeImports.has(planner.id, 1)).toBe(true);
    const before = loggedTypes();
    // as a daemon that died before marking the run imported would try again at its next start
    expect(() => work.proposePhases(init.id, planner.id, [draft("a"), draft("b")], 1)).toThrow("the outputs of session 1 of agent ag_planner were imported already");
    expect(work.items("once").phases.map((x) => [x.slug, x.version])).toEqual([["a", 1]]);
    expect(() => work.proposeTasks(p!.id, planner.id, [draft("t")], 1)).toThrow("imported already");
    expect(() => work.proposeGoal(init.id, planner.id, "other", 1)).toThrow("imported already");
    expect(work.items("once").tasks).toEqual([]);
    expect(work.initiative("once").proposedGoal).toBeNull();
    expect(loggedTypes()).toEqual(before);
    // the agent's next session is a new import
    expect(work.proposePhases(init.id, planner.id, [draft("b")], 2).map((x) => x.slug)).toEqual(["b"]);
  });

  const refusals: [string, ReturnType<typeof draft>[], string][] = [
    ["a cycle, named", [draft("a", "c"), draft("b", "a"), draft("c", "b")], "phase dependencies form a cycle: a → c → b → a"],
    ["an unknown dependency, named", [draft("a"), draft("b", "zzz")], "phase b depends on 'zzz': no such phase in initiative refuse"],
    ["a slug twice", [draft("a"), draft("a")], "phase a is proposed twice"],
    ["a bad slug", [draft("Not A Slug")], "phase 'Not A Slug': the slug must be lowercase letters, digits and dashes"],
    ["an empty title", [{ ...draft("a"), title: "  " }], "phase a: the title is empty"],
  ];
  for (const [name, drafts, message] of refusals) {
    test(`refused with nothing stored: ${name}`, async () => {
      const init = await work.createInitiative({ name: "Refuse", goal: "g", review: "phases" });
      expect(() => work.proposePhases(init.id, null, drafts)).toThrow(message);
      expect(work.tree(init.id).phases).toEqual([]);
      expect(loggedTypes()).toEqual(["initiative:created"]);
    });
  }

  test("dependencies stay within their initiative and phase", async () => {
    const a = await work.createInitiative({ name: "A", goal: "g", review: "none" });
    const b = await work.createInitiative({ name: "B", goal: "g", review: "none" });
    const [pa] = work.proposePhases(a.id, null, [draft("setup")]);
    expect(() => work.proposePhases(b.id, null, [draft("x", "a/setup")])).toThrow("phase x depends on 'a/setup', a phase of initiative a: dependencies stay within initiative b");
    expect(() => work.proposePhases(b.id, null, [draft("x", pa!.id)])).toThrow("a phase of initiative a");
    const [p1, p2] = work.proposePhases(b.id, null, [draft("one"), draft("two")]);
    work.proposeTasks(p1!.id, null, [draft("t1")]);
    expect(() => work.proposeTasks(p2!.id, null, [draft("t2", "t1")])).toThrow("task t2 depends on 't1', a task of phase one: dependencies stay within phase two");
    // task slugs are unique in the initiative, so `<initiative>/<slug>` names one task
    expect(() => work.proposeTasks(p2!.id, null, [draft("t1")])).toThrow("task t1: the slug is taken by task");
    expect(work.task("b/t1").phaseId).toBe(p1!.id);
    expect(work.task("b/one/t1").phaseId).toBe(p1!.id);
  });

  test("a new proposal may depend on existing phases; a new edge closing a cycle is refused", async () => {
    const init = await work.createInitiative({ name: "Grow", goal: "g", review: "phases" });
    const [base] = work.proposePhases(init.id, "ag_1", [draft("base")]);
    const [next] = work.proposePhases(init.id, "ag_2", [draft("next", "base")]);
    expect(next!.dependsOn).toEqual([base!.id]);
    work.approve({ ids: ["grow/base"] });
    // an approved phase's slug is not the agent's to replace
    expect(() => work.proposePhases(init.id, "ag_1", [draft("base")])).toThrow("phase base: the slug is taken by phase");
  });

  test("a rejected item is replaced in place by the next proposal of its slug; items marked for revision and left out go", async () => {
    const init = await work.createInitiative({ name: "Redo", goal: "g", review: "phases" });
    const [a, b, c] = work.proposePhases(init.id, "ag_1", [draft("a"), draft("b", "a"), draft("c")]);
    await work.reject("redo/a", { reason: "too big", revise: false });
    expect(work.phase(a!.id)).toMatchObject({ status: "rejected", reason: "too big", revise: false });
    // what `reject --revise` leaves (the resume itself is the integration test's)
    store.phases.update(c!.id, { status: "rejected", reason: "no", revise: true });
    const again = work.proposePhases(init.id, "ag_1", [{ ...draft("a"), title: "Smaller a" }]);
    expect(again[0]).toMatchObject({ id: a!.id, status: "proposed", title: "Smaller a", reason: null });
    expect(work.phase(a!.id).version).toBe(3);
    expect(store.phases.get(c!.id)).toBeNull();
    // b still depends on a: the replacement kept its id
    expect(work.phase(b!.id).dependsOn).toEqual([a!.id]);
    expect(loggedTypes().slice(-2)).toEqual(["phase:removed", "phase:updated"]);
  });

  test("a revised goal waits on the initiative until approved (or rejected)", async () => {
    const init = await work.createInitiative({ name: "Goal", goal: "old", review: "phases" });
    expect(work.proposeGoal(init.id, "ag_r", "new goal")).toMatchObject({ goal: "old", proposedGoal: "new goal" });
    expect(work.approve({ ids: ["goal"] }).initiatives[0]).toMatchObject({ goal: "new goal", proposedGoal: null });
    expect(() => work.approve({ ids: ["goal"] })).toThrow("initiative goal has no proposed goal to accept");
    work.proposeGoal(init.id, "ag_r", "another");
    await work.reject("goal", { reason: "no", revise: false });
    expect(work.initiative("goal")).toMatchObject({ goal: "new goal", proposedGoal: null });
  });
});

describe("review", () => {
  test("approve by ids is all or nothing; --all takes every proposed phase and task", async () => {
    const init = await work.createInitiative({ name: "Rev", goal: "g", review: "tasks" });
    const [p1, p2] = work.proposePhases(init.id, null, [draft("p1"), draft("p2")]);
    work.approve({ ids: [p1!.id] });
    expect(() => work.approve({ ids: ["rev/p2", "rev/p1"] })).toThrow("phase p1 is approved; only a proposed phase can be approved");
    expect(work.phase(p2!.id).status).toBe("proposed");
    work.proposeTasks(p1!.id, null, [draft("t1"), draft("t2", "t1")]);
    const all = work.approve({ ids: [], all: "rev" });
    expect(all.phases.map((p) => p.slug)).toEqual(["p2"]);
    expect(all.tasks.map((t) => [t.slug, t.status])).toEqual([["t1", "pending"], ["t2", "pending"]]);
    expect(work.approve({ ids: [], all: "rev" })).toEqual({ initiatives: [], phases: [], tasks: [] });
  });

  test("edit: proposed items only, dependencies resolved and checked", async () => {
    const init = await work.createInitiative({ name: "Ed", goal: "g", review: "phases" });
    const [a, b] = work.proposePhases(init.id, null, [draft("a"), draft("b", "a")]);
    expect(() => work.edit("ed/a", { dependsOn: ["b"] })).toThrow("phase dependencies form a cycle: a → b → a");
    expect(() => work.edit("ed/a", { dependsOn: ["nope"] })).toThrow("phase a depends on 'nope': no such phase in initiative ed");
    const edited = work.edit("ed/b", { title: "  New title ", body: "new body", dependsOn: [] }).phases[0]!;
    expect(edited).toMatchObject({ id: b!.id, title: "New title", content: "new body", dependsOn: [], version: 2 });
    work.approve({ ids: [a!.id] });
    expect(() => work.edit("ed/a", { title: "x" })).toThrow("phase a is approved; only a proposed phase can be edited");
  });

  test("retry: a blocked or failed task goes back to pending; others are refused", async () => {
    const init = await work.createInitiative({ name: "Re", goal: "g", review: "none" });
    const [p] = work.proposePhases(init.id, null, [draft("p")]);
    const [t] = work.proposeTasks(p!.id, null, [draft("t")]);
    expect(() => work.retry("re/t")).toThrow("task t is pending; only a blocked or failed task can be retried");
    store.tasks.update(t!.id, { status: "failed", reason: "tests fail", conflicts: ["a.ts"] });
    expect(work.retry(t!.id)).toMatchObject({ status: "pending", reason: null, conflicts: null });
  });

  test("reject --revise needs a proposing agent that can be resumed; nothing changes otherwise", async () => {
    const init = await work.createInitiative({ name: "Rj", goal: "g", review: "phases" });
    work.proposePhases(init.id, null, [draft("mine")]);
    work.proposePhases(init.id, "ag_gone", [draft("theirs")]);
    await expect(work.reject("rj/mine", { reason: "r", revise: true })).rejects.toThrow("phase mine was not proposed by an agent");
    await expect(work.reject("rj/theirs", { reason: "r", revise: true })).rejects.toThrow("ag_gone, which proposed phase theirs, cannot be resumed now");
    expect(work.tree("rj").phases.map((p) => p.status)).toEqual(["proposed", "proposed"]);
  });

  test("a ref that names both a phase and a task is refused with both full refs", async () => {
    const init = await work.createInitiative({ name: "Amb", goal: "g", review: "none" });
    const [p] = work.proposePhases(init.id, null, [draft("same")]);
    work.proposeTasks(p!.id, null, [draft("same")]);
    expect(() => work.item("amb/same")).toThrow(`'amb/same' names both a phase and a task; say ${p!.id} for the phase, amb/same/same for the task`);
    expect(work.item("amb/same/same").tasks).toHaveLength(1);
  });
});
