import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { WorkItems } from "../../src/protocol/api-work.ts";
import type { Initiative, PhaseTree } from "../../src/protocol/work.ts";

/**
 * Mode runs end to end through the compiled binary: `troupe daemon` with the real WorkService and
 * store, a real git repository, real agent processes (the generic provider running a shell script
 * that writes proposal files and then `troupe signal done`), driven by `troupe plan|detail|discuss`
 * and reviewed with `troupe phases` and `troupe approve`.
 */

const sh = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
/** A shell script writing `.troupe/output/<dir>/<slug>.md` files, each given as its lines. */
const writes = (dir: string, files: Record<string, string[]>) =>
  [`mkdir -p .troupe/output/${dir}`, ...Object.entries(files).map(([slug, lines]) => `printf '%s\\n' ${lines.map(sh).join(" ")} > .troupe/output/${dir}/${slug}.md`)].join(" && ");
/** Checks what the agent was given (its id in its prompt, its input files, the initiative branch), then writes and signals. */
const planAgent = (files: Record<string, string[]>) =>
  [
    `case "$TROUPE_PROMPT" in *"(id $TROUPE_AGENT_ID)"*"# Plan"*|*"# Plan"*"(id $TROUPE_AGENT_ID)"*) ;; *) troupe signal error --error "no id or plan section in the prompt"; exit 0;; esac`,
    `test -f .troupe/input/initiative.md || { troupe signal error --error "no initiative.md"; exit 0; }`,
    `test -f merged.txt || { troupe signal error --error "not on the initiative branch"; exit 0; }`,
    writes("phases", files),
    `troupe signal done --result planned`,
  ].join("\n");

const STORE = ["---", "title: Session storage", "dependsOn: []", "---", "Tables for sessions."];
const API = ["---", "title: Session API", "dependsOn: [store]", "---", "Routes over the store."];
const TABLE = ["---", "title: Sessions table", "dependsOn: []", "---", "Migration 9; test: tests/store/sessions.test.ts."];
const ROUTES = ["---", "title: Session routes", "dependsOn: [table]", "---", "GET /v1/sessions."];

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/** A workspace with initiative `sessions`, whose branch holds merged work a mode agent must see. */
async function setUp(): Promise<Initiative> {
  sb = new Sandbox();
  const init = await sb.json<Initiative>(["initiative", "new", "Sessions", "--goal", "# Sessions\n\nSessions survive a restart.", "--json"]);
  sb.git("checkout", "-q", init.branch);
  Bun.spawnSync(["sh", "-c", "echo merged > merged.txt && git add merged.txt && git commit -q -m merged"], { cwd: sb.dir, env: sb.env });
  sb.git("checkout", "-q", "main");
  return init;
}

async function ended(id: string): Promise<Agent> {
  return waitFor(`${id} to end`, async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.id === id);
    return a && (a.status === "done" || a.status === "failed") ? a : undefined;
  });
}

const tree = (ref: string) => sb.json<PhaseTree>(["phases", ref, "--json"]);
const items = async (ref: string): Promise<WorkItems> => (await fetch(`http://troupe/v1/initiatives/${ref}/work`, { unix: sb.socket })).json() as Promise<WorkItems>;

test("plan → phases proposed → approve --all → detail → tasks pending; each session imported once", async () => {
  const init = await setUp();
  const started = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE, api: API }), "--json"]);
  expect(started).toMatchObject({ mode: "plan", initiativeId: init.id, phaseId: null, taskId: null });
  expect(started.branch).toStartWith("troupe/");
  const planner = await ended(started.id);
  expect([planner.status, planner.error]).toEqual(["done", null]);

  const planned = await tree("sessions");
  expect(planned.phases.map((p) => [p.slug, p.status, p.title])).toEqual([
    ["store", "proposed", "Session storage"],
    ["api", "proposed", "Session API"],
  ]);
  expect(planned.phases[1]!.dependsOn).toEqual([planned.phases[0]!.id]);
  const { phases } = await items("sessions");
  expect(phases.map((p) => [p.slug, p.proposedBy, p.content])).toEqual([
    ["store", started.id, "Tables for sessions."],
    ["api", started.id, "Routes over the store."],
  ]);
  const manifest = JSON.parse(readFileSync(join(planner.worktree!, ".troupe/input/manifest.json"), "utf8"));
  expect(manifest).toMatchObject({ agentId: started.id, agentName: started.name, mode: "plan", initiativeId: init.id, files: ["initiative.md"] });
  // imported files move aside: a later session (a revision) proposes only what it writes then
  expect(existsSync(join(planner.worktree!, ".troupe/output/imported/1-phases/api.md"))).toBe(true);
  expect(existsSync(join(planner.worktree!, ".troupe/output/phases"))).toBe(false);

  // a daemon that died after storing the set, before moving the files aside: the next start
  // finds the session imported (recorded with the set) and only moves them
  await sb.run(["daemon", "stop"]);
  const out = join(planner.worktree!, ".troupe/output");
  renameSync(join(out, "imported/1-phases"), join(out, "phases"));
  await sb.json(["ls", "--json"]); // starts the daemon again
  expect((await items("sessions")).phases.map((p) => p.version)).toEqual([1, 1]);
  await waitFor("the outputs moved aside again", () => existsSync(join(out, "imported/1-phases/store.md")) && !existsSync(join(out, "phases")));
  expect((await items("sessions")).phases.map((p) => p.version)).toEqual([1, 1]);

  const approved = await sb.json<WorkItems>(["approve", "--all", "sessions", "--json"]);
  expect(approved.phases.map((p) => [p.slug, p.status])).toEqual([
    ["store", "approved"],
    ["api", "approved"],
  ]);

  const store = planned.phases[0]!;
  const check = `grep -q "id: ${store.id}" .troupe/input/phase.md && test -f .troupe/input/context/phases/api.md && ${writes("tasks", { table: TABLE, routes: ROUTES })} && troupe signal done`;
  const detail = await sb.json<Agent>(["detail", "sessions/store", "--command", check, "--json"]);
  expect(detail).toMatchObject({ mode: "detail", initiativeId: init.id, phaseId: store.id, taskId: null });
  expect((await ended(detail.id)).error).toBeNull();
  const detailed = await tree("sessions");
  // review policy `phases`: tasks arrive pending, ready to dispatch
  expect(detailed.phases[0]!.tasks.map((t) => [t.slug, t.status, t.title])).toEqual([
    ["table", "pending", "Sessions table"],
    ["routes", "pending", "Session routes"],
  ]);
  expect(detailed.phases[0]!.tasks[1]!.dependsOn).toEqual([detailed.phases[0]!.tasks[0]!.id]);
  expect(detailed.phases[1]!.tasks).toEqual([]);
});

test("a malformed file fails the run, naming the file and the problem, and imports nothing", async () => {
  await setUp();
  const bad = ["---", "title:", "dependsOn: [store]", "---", "No title."];
  const started = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE, broken: bad }), "--json"]);
  const agent = await ended(started.id);
  expect(agent.status).toBe("failed");
  expect(agent.error).toBe("outputs not imported: .troupe/output/phases/broken.md: front matter title: Invalid input: expected string, received null");
  expect((await tree("sessions")).phases).toEqual([]);
  // left in place for the agent to fix on a resume
  expect(existsSync(join(agent.worktree!, ".troupe/output/phases/broken.md"))).toBe(true);
  // the work model's own refusal (an unknown dependency) fails the run the same way
  const unknown = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ api: API }), "--json"]);
  expect((await ended(unknown.id)).error).toBe("outputs not imported: phase api depends on 'store': no such phase in initiative sessions");
  expect((await tree("sessions")).phases).toEqual([]);
});

test("troupe discuss: decisions are kept with the initiative, shown by initiative show, and given to the next mode agent", async () => {
  await setUp();
  const decision = ["---", "title: Sessions live in SQLite", "---", "One row per session."];
  const discuss = await sb.json<Agent>(["discuss", "sessions", "--command", `${writes("decisions", { "session-store": decision })} && troupe signal done`, "--json"]);
  expect((await ended(discuss.id)).status).toBe("done");
  const show = await sb.run(["initiative", "show", "sessions"]);
  expect(show.stdout).toEndWith("Sessions survive a restart.\n\ndecisions:\n  Sessions live in SQLite (session-store)\n    One row per session.\n");
  const json = await sb.json<Initiative & { decisions: unknown }>(["initiative", "show", "sessions", "--json"]);
  expect(json.decisions).toEqual([{ slug: "session-store", title: "Sessions live in SQLite", body: "One row per session." }]);
  const check = `grep -q "One row per session." .troupe/input/context/decisions/session-store.md && ${writes("phases", { store: STORE })} && troupe signal done`;
  const plan = await sb.json<Agent>(["plan", "sessions", "--command", check, "--json"]);
  expect((await ended(plan.id)).error).toBeNull();
  expect((await tree("sessions")).phases.map((p) => p.slug)).toEqual(["store"]);
});

test("detail refuses a phase not approved; unknown refs are one clear line, exit 1", async () => {
  await setUp();
  const plan = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE }), "--json"]);
  expect((await ended(plan.id)).status).toBe("done");
  const cases: [string[], string][] = [
    [["detail", "sessions/store", "--command", "true"], "troupe: phase store is proposed; only an approved phase is detailed\n"],
    [["detail", "sessions/nope", "--command", "true"], "troupe: no phase 'sessions/nope' (give its id or INITIATIVE/SLUG)\n"],
    [["plan", "nope", "--command", "true"], "troupe: no initiative 'nope' (give its id or slug; 'troupe initiative ls' lists them)\n"],
  ];
  for (const [args, line] of cases) {
    const r = await sb.run(args);
    expect([r.code, r.stderr]).toEqual([1, line]);
  }
});
