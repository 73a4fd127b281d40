import { describe, expect, test } from "bun:test";
import type { AgentStatus } from "../../src/protocol/status.ts";
import type { PhaseStatus, TaskStatus } from "../../src/protocol/work.ts";
import type { PhaseRecord } from "../../src/store/phases.ts";
import type { TaskRecord } from "../../src/store/tasks.ts";
import type { HostSlots } from "../../src/work/placement.ts";
import { advance, settle, type AdvanceStep, type AgentView, type SettleStep, type Snapshot } from "../../src/work/dispatch-plan.ts";

let clock = 0;
const phase = (slug: string, status: PhaseStatus, dependsOn: string[] = [], reason: string | null = null): PhaseRecord => ({
  id: slug,
  initiativeId: "in",
  slug,
  title: slug,
  content: "",
  status,
  dependsOn,
  proposedBy: null,
  reason,
  pin: null,
  revise: false,
  version: 1,
  createdAt: ++clock,
  updatedAt: clock,
});
const task = (slug: string, status: TaskStatus, o: Partial<TaskRecord> = {}): TaskRecord => ({
  id: slug,
  initiativeId: "in",
  phaseId: "p",
  slug,
  title: slug,
  description: "",
  status,
  dependsOn: [],
  proposedBy: null,
  agentId: null,
  branch: null,
  summary: null,
  reason: null,
  conflicts: null,
  files: null,
  waiting: null,
  host: null,
  placement: null,
  pin: null,
  lostRuns: [],
  hostAgent: null,
  mergedAt: null,
  mergeCommit: null,
  resolveSession: null,
  revise: false,
  version: 1,
  createdAt: ++clock,
  updatedAt: clock,
  ...o,
});
const agent = (id: string, status: AgentStatus, session = 1, error: string | null = null): AgentView => ({ id, name: `n-${id}`, status, session, error });

function snap(
  phases: PhaseRecord[],
  tasks: TaskRecord[],
  o: {
    agents?: AgentView[];
    details?: Record<string, AgentView[]>;
    concurrency?: number;
    refused?: string[];
    starting?: string[];
    budgetUsd?: number;
    spentUsd?: number;
    reason?: string;
    hosts?: HostSlots[];
    /** Remote agents by `<host>/<name>`; absent: not seen. */
    remote?: Record<string, AgentView | null>;
    lost?: string[];
  } = {},
): Snapshot {
  return {
    slug: "in",
    budgetUsd: o.budgetUsd ?? null,
    spentUsd: o.spentUsd ?? 0,
    reason: o.reason ?? null,
    phases,
    tasks,
    concurrency: o.concurrency ?? 2,
    agent: (id) => o.agents?.find((a) => a.id === id) ?? null,
    detailAgents: (p) => o.details?.[p] ?? [],
    detailRefused: (p) => o.refused?.includes(p) ?? false,
    starting: (id) => o.starting?.includes(id) ?? false,
    hosts: o.hosts ?? null,
    provider: "claude",
    expectedMs: () => 60_000,
    now: 1_000,
    hostAgent: (t) => o.remote?.[`${t.host}/${t.hostAgent}`],
    hostLost: (t) => (o.lost?.includes(t.host!) ? `${t.host} did not answer` : null),
  };
}

/** Steps as short strings: `merge a`, `start b`, `phase p in_progress`, ... */
const show = (steps: (SettleStep | AdvanceStep)[]) =>
  steps.map((s) => {
    switch (s.kind) {
      case "phase":
        return `phase ${s.phase.slug} ${s.status}${s.reason ? `: ${s.reason}` : ""}`;
      case "detail":
        return `detail ${s.phase.slug}`;
      case "complete":
        return "complete";
      case "hold":
        return `hold: ${s.reason}`;
      case "fail":
        return `fail ${s.task.slug}: ${s.reason}`;
      case "wait":
        return `wait ${s.task.slug}${s.reason ? `: ${s.reason}` : ""}`;
      case "start":
        return `start ${s.task.slug}${s.placed ? ` on ${s.placed.host}` : ""}`;
      case "lost":
        return `lost ${s.task.slug}: ${s.reason}`;
      default:
        return `${s.kind} ${s.task.slug}`;
    }
  });

describe("settle: what became of the tasks under way", () => {
  const cases: [string, TaskRecord, AgentView | null, string[]][] = [
    ["a running agent: nothing yet", task("a", "in_progress", { agentId: "g" }), agent("g", "running"), []],
    ["waiting on the person's answer: nothing yet", task("a", "in_progress", { agentId: "g" }), agent("g", "waiting"), []],
    ["done: merge", task("a", "in_progress", { agentId: "g" }), agent("g", "done"), ["merge a"]],
    ["failed: the task fails with the agent's reason", task("a", "in_progress", { agentId: "g" }), agent("g", "failed", 1, "rate limited"), ["fail a: agent n-g failed: rate limited"]],
    ["stopped by the person", task("a", "in_progress", { agentId: "g" }), agent("g", "stopped"), ["fail a: agent n-g was stopped"]],
    ["its agent removed", task("a", "in_progress", { agentId: "g" }), null, ["fail a: its agent was removed before its work was merged"]],
    ["claimed, the daemon died before its agent was recorded", task("a", "in_progress"), null, ["recover a"]],
    ["a resume to resolve recorded but never started", task("a", "in_progress", { agentId: "g", resolveSession: 2 }), agent("g", "done", 1), ["resolve a"]],
    ["the resolving session ended: merge again", task("a", "in_progress", { agentId: "g", resolveSession: 2 }), agent("g", "done", 2), ["merge a"]],
    ["a completed task is left alone", task("a", "completed", { agentId: "g" }), agent("g", "done"), []],
  ];
  for (const [name, t, a, steps] of cases) test(name, () => expect(show(settle(snap([], [t], { agents: a ? [a] : [] })))).toEqual(steps));
});

describe("advance: starts, details and completions", () => {
  test("ready tasks start by dependency order then age, at most `concurrency` under way", () => {
    const p = phase("p", "approved");
    const ts = [task("c", "pending", { dependsOn: ["a"] }), task("a", "completed"), task("b", "pending"), task("d", "pending"), task("e", "in_progress", { agentId: "g" })];
    expect(show(advance(snap([p], ts, { concurrency: 3, agents: [agent("g", "running")] })))).toEqual(["phase p in_progress", "start b", "start d", "wait c: waits for a free slot"]);
  });

  test("a task waits for its dependencies to complete, not just to start", () => {
    const ts = [task("a", "in_progress", { agentId: "g" }), task("b", "pending", { dependsOn: ["a"] })];
    expect(show(advance(snap([phase("p", "in_progress")], ts)))).toEqual([]);
  });

  test("a phase waits for the phases it depends on", () => {
    const phases = [phase("p", "in_progress"), phase("q", "approved", ["p"])];
    const ts = [task("a", "in_progress", { agentId: "g" }), task("b", "pending", { phaseId: "q" })];
    expect(show(advance(snap(phases, ts)))).toEqual([]);
  });

  test("a proposed or rejected phase is not dispatched", () => {
    expect(show(advance(snap([phase("p", "proposed"), phase("q", "rejected")], [])))).toEqual([]);
  });

  test("an approved phase without tasks gets one detail agent", () => {
    expect(show(advance(snap([phase("p", "approved")], [])))).toEqual(["phase p in_progress", "detail p"]);
    expect(show(advance(snap([phase("p", "in_progress")], [], { details: { p: [agent("g", "running")] } })))).toEqual([]);
    // tasks rejected without --revise: the person decides what next
    expect(show(advance(snap([phase("p", "in_progress")], [task("a", "rejected")], { details: { p: [agent("g", "done")] } })))).toEqual([]);
    expect(show(advance(snap([phase("p", "approved")], [], { refused: ["p"] })))).toEqual([]);
  });

  test("a failed detail agent is said on the phase, which stays detailable", () => {
    const steps = advance(snap([phase("p", "in_progress")], [], { details: { p: [agent("g", "failed", 1, "no tasks")] } }));
    expect(show(steps)).toEqual(["phase p in_progress: its detail agent n-g failed: no tasks"]);
  });

  test("proposed tasks wait for the person (review tasks)", () => {
    expect(show(advance(snap([phase("p", "in_progress")], [task("a", "proposed")], { details: { p: [agent("g", "done")] } })))).toEqual([]);
  });

  test("a phase completes when every task has; the initiative when every phase has", () => {
    const phases = [phase("p", "in_progress"), phase("q", "completed"), phase("r", "rejected")];
    expect(show(advance(snap(phases, [task("a", "completed"), task("b", "rejected")])))).toEqual(["phase p completed", "complete"]);
  });

  test("the initiative waits for a proposed phase", () => {
    expect(show(advance(snap([phase("p", "completed"), phase("q", "proposed")], [])))).toEqual([]);
  });

  test("a phase is blocked only when nothing in it can go on", () => {
    const p = phase("p", "in_progress");
    expect(show(advance(snap([p], [task("a", "blocked"), task("b", "in_progress", { agentId: "g" })], { agents: [agent("g", "running")] })))).toEqual([]);
    expect(show(advance(snap([p], [task("a", "blocked"), task("b", "completed")])))).toEqual(["phase p blocked: task a is blocked"]);
    expect(show(advance(snap([p], [task("a", "failed"), task("b", "pending", { dependsOn: ["a"] })])))).toEqual(["phase p blocked: task a is failed"]);
  });

  test("a retried task takes its blocked phase back in progress", () => {
    const p = phase("p", "blocked", [], "task a is blocked");
    expect(show(advance(snap([p], [task("a", "pending"), task("b", "completed")])))).toEqual(["phase p in_progress", "start a"]);
  });
});

describe("advance: the files tasks own", () => {
  const running = (slug: string, files: string[] | null, o: Partial<TaskRecord> = {}) => task(slug, "in_progress", { agentId: `g-${slug}`, files, ...o });
  const agentsOf = (...slugs: string[]) => slugs.map((s) => agent(`g-${s}`, "running"));

  test("a ready task whose files meet those of one under way waits, and says for which and what", () => {
    const ts = [running("write-api", ["src/api.ts"]), task("api-docs", "pending", { files: ["src/*.ts", "docs/api.md"] }), task("ui", "pending", { files: ["src/ui/**"] })];
    expect(show(advance(snap([phase("p", "in_progress")], ts, { concurrency: 4, agents: agentsOf("write-api") })))).toEqual(["start ui", "wait api-docs: waits for write-api (src/api.ts)"]);
  });

  test("two ready tasks whose files meet: the first starts, the second waits for it", () => {
    const ts = [task("a", "pending", { files: ["src/store/**"] }), task("b", "pending", { files: ["src/store/tasks.ts"] }), task("c", "pending", { files: ["src/store/*.md"] })];
    expect(show(advance(snap([phase("p", "approved")], ts, { concurrency: 3 })))).toEqual(["phase p in_progress", "start a", "wait b: waits for a (src/store/**)", "wait c: waits for a (src/store/**)"]);
    // different extensions in the same folder, and `[]` (it owns none): side by side
    const apart = [task("a", "pending", { files: ["src/*.ts"] }), task("b", "pending", { files: ["src/*.md"] }), task("c", "pending", { files: [] })];
    expect(show(advance(snap([phase("p", "approved")], apart, { concurrency: 3 })))).toEqual(["phase p in_progress", "start a", "start b", "start c"]);
  });

  test("a task without a list owns what its phase's other tasks do not list", () => {
    const phases = [phase("p", "in_progress"), phase("q", "in_progress")];
    // its own phase lists src/api.ts: not its; another phase's task holds docs/, which its phase does not list
    const ts = [running("api", ["src/api.ts"]), task("rest", "pending"), running("docs", ["docs/**"], { phaseId: "q" })];
    expect(show(advance(snap(phases, ts, { concurrency: 4, agents: agentsOf("api", "docs") })))).toEqual(["wait rest: waits for docs (docs/**)"]);
    // two without a list are not kept apart (docs/work-model.md)
    const bare = [running("one", null), task("two", "pending")];
    expect(show(advance(snap([phase("p", "in_progress")], bare, { concurrency: 2, agents: agentsOf("one") })))).toEqual(["start two"]);
  });

  test("what a task waited for is cleared once it starts (by its claim) or is no longer ready", () => {
    const ts = [task("a", "pending", { files: ["x"], waiting: "waits for a free slot" }), task("b", "failed", { waiting: "waits for a free slot" })];
    expect(show(advance(snap([phase("p", "in_progress")], ts, { concurrency: 2 })))).toEqual(["start a", "wait b"]);
  });
});

describe("advance: the initiative's budget", () => {
  const reason = "budget spent: $5.00 of $5.00; raise it with troupe initiative budget in USD";
  test("under budget: tasks and details start as ever", () => {
    const phases = [phase("p", "in_progress"), phase("q", "approved")];
    expect(show(advance(snap(phases, [task("a", "pending")], { budgetUsd: 5, spentUsd: 4.99 })))).toEqual(["start a", "phase q in_progress", "detail q"]);
  });

  test("spent: no task and no detail starts, and the initiative says why", () => {
    const phases = [phase("p", "in_progress"), phase("q", "approved")];
    expect(show(advance(snap(phases, [task("a", "pending")], { budgetUsd: 5, spentUsd: 5 })))).toEqual([`hold: ${reason}`]);
    // said once: the next pass finds it said
    expect(show(advance(snap(phases, [task("a", "pending")], { budgetUsd: 5, spentUsd: 5, reason })))).toEqual([]);
  });

  test("spent while its agents still run: merges go on, nothing new starts; the phase is not blocked", () => {
    const ts = [task("a", "in_progress", { agentId: "g" }), task("b", "pending")];
    expect(show(advance(snap([phase("p", "in_progress")], ts, { budgetUsd: 1, spentUsd: 2, agents: [agent("g", "running")] })))).toEqual([
      "hold: budget spent: $2.00 of $1.00; raise it with troupe initiative budget in USD",
    ]);
  });

  test("raised: starts resume and the reason goes", () => {
    expect(show(advance(snap([phase("p", "in_progress")], [task("a", "pending")], { budgetUsd: 10, spentUsd: 5, reason })))).toEqual(["start a", "hold: null"]);
  });

  test("spent with nothing left to start: no reason, and the initiative completes", () => {
    expect(show(advance(snap([phase("p", "in_progress")], [task("a", "completed")], { budgetUsd: 1, spentUsd: 3 })))).toEqual(["phase p completed", "complete"]);
  });
});

describe("the pool: placement, remote runs, lost hosts", () => {
  const host = (name: string, slots: number, used = 0, o: Partial<HostSlots> = {}): HostSlots => ({ name, slots, used, reachable: true, error: null, providers: ["claude"], accounts: [], ...o });
  const phases = [phase("p", "in_progress")];

  test("ready tasks fill this machine first, then the host with the most free slots; the rest wait for a free slot", () => {
    const ts = ["a", "b", "c", "d", "e"].map((s) => task(s, "pending"));
    const hosts = [host("local", 1), host("box", 1), host("big", 2)];
    expect(show(advance(snap(phases, ts, { hosts, concurrency: 8 })))).toEqual([
      "start a on local",
      "start b on big",
      // a tie goes to the host listed first
      "start c on box",
      "start d on big",
      "wait e: waits for a free slot (local 1/1, box 1/1, big 2/2)",
    ]);
  });

  test("a pin holds the task to its host; the phase's pin counts for its tasks; a pin to no host of the pool waits saying so", () => {
    const hosts = [host("local", 4), host("box", 1, 1)];
    expect(show(advance(snap(phases, [task("a", "pending", { pin: "box" })], { hosts })))).toEqual(["wait a: waits for a free slot on box (1/1), which it is pinned to"]);
    const pinned = [{ ...phase("p", "in_progress"), pin: "box" }];
    expect(show(advance(snap(pinned, [task("a", "pending")], { hosts: [host("local", 4), host("box", 1)] })))).toEqual(["start a on box"]);
    expect(show(advance(snap(phases, [task("a", "pending", { pin: "gone" })], { hosts })))).toEqual(["wait a: pinned to gone, which is not a host of the pool ('troupe hosts' lists them)"]);
  });

  test("a host without the provider, unreachable, or with every account out is passed over", () => {
    const hosts = [host("local", 1, 1), host("a", 2, 0, { providers: ["codex"] }), host("b", 2, 0, { reachable: false, error: "timed out" }), host("c", 2, 0, { accounts: [{ provider: "claude", status: "exhausted", runsOutAt: null }] })];
    expect(show(advance(snap(phases, [task("t", "pending")], { hosts })))).toEqual(["wait t: waits for a free slot (local 1/1)"]);
    expect(show(advance(snap(phases, [task("t", "pending")], { hosts: hosts.slice(1) })))).toEqual([
      "wait t: no host can run it: a has no claude; b is unreachable (timed out); c's claude accounts are all out",
    ]);
  });

  test("an account forecast to run out within the task makes its host a last resort", () => {
    const short = { accounts: [{ provider: "claude", status: "available" as const, runsOutAt: 30_000 }] };
    expect(show(advance(snap(phases, [task("t", "pending")], { hosts: [host("local", 2, 0, short), host("box", 1)] })))).toEqual(["start t on box"]);
    expect(show(advance(snap(phases, [task("t", "pending")], { hosts: [host("local", 2, 0, short)] })))).toEqual(["start t on local"]);
  });

  test("a remote task: recovered until its branch is known, followed as its host shows its agent, merged when done, lost when its host is silent", () => {
    const on = (o: Partial<TaskRecord> = {}) => task("a", "in_progress", { host: "box", hostAgent: "a-1f2e3d", branch: "troupe/a-1f2e3d", ...o });
    const view = (status: AgentStatus) => ({ "box/a-1f2e3d": { ...agent("r", status), name: "a-1f2e3d" } });
    expect(show(settle(snap(phases, [on({ branch: null })])))).toEqual(["recover a"]);
    expect(show(settle(snap(phases, [on()])))).toEqual([]);
    expect(show(settle(snap(phases, [on()], { remote: view("running") })))).toEqual([]);
    expect(show(settle(snap(phases, [on()], { remote: view("done") })))).toEqual(["merge a"]);
    expect(show(settle(snap(phases, [on()], { remote: { "box/a-1f2e3d": null } })))).toEqual(["fail a: its agent a-1f2e3d on box was removed before its work was merged"]);
    expect(show(settle(snap(phases, [on()], { remote: view("done"), lost: ["box"] })))).toEqual(["lost a: box did not answer"]);
    // under way on a host, it holds its slot there
    expect(show(advance(snap(phases, [on(), task("b", "pending")], { hosts: [host("local", 1, 1), host("box", 1, 1)] })))).toEqual(["wait b: waits for a free slot (local 1/1, box 1/1)"]);
  });

  test("a task whose agent's run is over holds no slot while it waits for its merge, here or on a host; it still owns its files", () => {
    const here = task("a", "in_progress", { agentId: "g", files: ["a.txt"] });
    const there = task("b", "in_progress", { host: "box", hostAgent: "b-1", branch: "troupe/b-1", files: ["b.txt"] });
    const ready = [task("c", "pending", { files: ["c.txt"] }), task("d", "pending", { files: ["b.txt"] })];
    const hosts = [host("local", 1, 0), host("box", 1, 0)];
    expect(show(advance(snap(phases, [here, there, ...ready], { hosts, concurrency: 2, agents: [agent("g", "done")], remote: { "box/b-1": { ...agent("r", "done"), name: "b-1" } } })))).toEqual([
      "start c on local",
      "wait d: waits for b (b.txt)",
    ]);
    // both still running: both of the initiative's slots taken
    expect(show(advance(snap(phases, [here, there, ...ready], { hosts, concurrency: 2, agents: [agent("g", "running")], remote: { "box/b-1": { ...agent("r", "running"), name: "b-1" } } })))).toEqual([
      "wait c: waits for a free slot",
      "wait d: waits for b (b.txt)",
    ]);
  });
});
