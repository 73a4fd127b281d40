import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { MemoryWork } from "../support/memory-work.ts";
import { createServices, type RunningServices } from "../../src/services/create.ts";
import { createStore, type Store } from "../../src/store/index.ts";
import { Logger } from "../../src/events/log.ts";
import { buildRouter } from "../../src/daemon/routes/index.ts";
import { serve, type DaemonServer } from "../../src/daemon/server.ts";
import { excludeStateDir, type Workspace } from "../../src/workspace.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { ModeWork } from "../../src/work/work-reader.ts";

/**
 * Mode runs end to end, except the work model's store: a real daemon (the services, routes and
 * socket of `troupe daemon`, run in this process so it can be handed a work model), a real git
 * repository, real agent processes (the generic provider running a shell script that writes
 * proposal files and then `troupe signal done` through the compiled CLI), driven by the compiled
 * `troupe plan`. The work model is MemoryWork until work-core's WorkService lands.
 */

const USER = { kind: "user" } as const;

class InProcessDaemon {
  readonly store: Store;
  private core: RunningServices;
  private server: DaemonServer;

  constructor(
    readonly sb: Sandbox,
    work: ModeWork | null,
  ) {
    const ws: Workspace = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
    mkdirSync(ws.stateDir, { recursive: true, mode: 0o700 });
    excludeStateDir(ws.root);
    const log = new Logger(join(ws.stateDir, "daemon.log"));
    this.store = createStore(join(ws.stateDir, "troupe.db"), log);
    this.core = createServices({ ws, store: this.store, log, binDir: dirname(BIN), stopDaemon: () => {}, work });
    this.core.start();
    this.server = serve(ws.socket, buildRouter(this.core.services), this.core.services, log, { onRequest: () => {}, onNewerClient: () => {} });
  }

  agent(ref: string): Agent {
    return this.core.services.agents.get(USER, ref);
  }

  async ended(ref: string): Promise<Agent> {
    return waitFor(`${ref} to end`, () => {
      const a = this.agent(ref);
      return a.status === "done" || a.status === "failed" ? a : undefined;
    });
  }

  /** As a daemon stops: agents keep running, the store closes. */
  async stop(): Promise<void> {
    this.server.stop();
    await this.core.shutdown();
    this.store.close();
  }
}

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

let sb: Sandbox;
let daemons: InProcessDaemon[] = [];

function setUp(): MemoryWork {
  sb = new Sandbox();
  // the initiative branch holds merged work the plan agent must see
  sb.git("checkout", "-q", "-b", "troupe-initiative/sessions");
  sb.git("commit", "-q", "--allow-empty", "-m", "merged work");
  Bun.spawnSync(["sh", "-c", "echo merged > merged.txt && git add merged.txt && git commit -q -m merged"], { cwd: sb.dir, env: sb.env });
  sb.git("checkout", "-q", "main");
  const work = new MemoryWork();
  work.addInitiative("sessions", "# Sessions\n\nSessions survive a restart.");
  return work;
}

afterEach(async () => {
  // stops live agents and asks the (in-process) daemon to stop, before it goes away
  await sb.close();
  for (const d of daemons) await d.stop();
  daemons = [];
});

test("troupe plan: the agent's two phase files are parsed into drafts and handed to the work model, once", async () => {
  const work = setUp();
  const d = new InProcessDaemon(sb, work);
  daemons.push(d);
  const started = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE, api: API }), "--json"]);
  expect(started.branch).toStartWith("troupe/");
  const agent = await d.ended(started.id);
  expect(agent.error).toBeNull();
  expect(agent.status).toBe("done");
  expect(work.calls).toEqual([
    {
      method: "proposePhases",
      target: "in_sessions",
      agentId: started.id,
      drafts: [
        { slug: "api", title: "Session API", dependsOn: ["store"], body: "Routes over the store." },
        { slug: "store", title: "Session storage", dependsOn: [], body: "Tables for sessions." },
      ],
    },
  ]);
  const manifest = JSON.parse(readFileSync(join(agent.worktree!, ".troupe/input/manifest.json"), "utf8"));
  expect(manifest).toMatchObject({ agentId: started.id, agentName: started.name, mode: "plan", initiativeId: "in_sessions", files: ["initiative.md"] });
  expect(manifest.phaseId).toBeUndefined();
  // imported files move aside: a later session (a revision) proposes only what it writes then
  expect(existsSync(join(agent.worktree!, ".troupe/output/imported/1-phases/api.md"))).toBe(true);
  expect(existsSync(join(agent.worktree!, ".troupe/output/phases"))).toBe(false);
  // a restarted daemon does not import the same session again
  await d.stop();
  daemons = [];
  daemons.push(new InProcessDaemon(sb, work));
  expect(work.calls).toHaveLength(1);
});

test("a malformed phase file fails the run, naming the file and the problem, and imports nothing", async () => {
  const work = setUp();
  const d = new InProcessDaemon(sb, work);
  daemons.push(d);
  const bad = ["---", "title:", "dependsOn: [store]", "---", "No title."];
  const started = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE, broken: bad }), "--json"]);
  const agent = await d.ended(started.id);
  expect(agent.status).toBe("failed");
  expect(agent.error).toBe("outputs not imported: .troupe/output/phases/broken.md: front matter title: Invalid input: expected string, received null");
  expect(work.calls).toEqual([]);
  expect(work.phaseList).toEqual([]);
  // left in place for the agent to fix on a resume
  expect(existsSync(join(agent.worktree!, ".troupe/output/phases/broken.md"))).toBe(true);
  // the work model's own refusal (an unknown dependency) fails the run the same way
  const unknown = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ api: API }), "--json"]);
  expect((await d.ended(unknown.id)).error).toBe("outputs not imported: phase 'api' depends on 'store', which is no phase of this plan or initiative");
  expect(work.calls).toEqual([]);
});

test("a run whose import a crash cut off (ended, not marked imported) is imported by the next start, once", async () => {
  const work = setUp();
  let d = new InProcessDaemon(sb, work);
  daemons.push(d);
  const started = await sb.json<Agent>(["plan", "sessions", "--command", planAgent({ store: STORE }), "--json"]);
  expect((await d.ended(started.id)).status).toBe("done");
  expect(work.calls).toHaveLength(1);
  await d.stop();
  // as if the daemon died between the session's end and the import: not marked imported in the
  // daemon's record, the files not yet moved aside
  const record = join(sb.dir, ".troupe/agents", started.id, "work.json");
  writeFileSync(record, readFileSync(record, "utf8").replace('"importedSession":1', '"importedSession":0'));
  const out = join(started.worktree!, ".troupe/output");
  renameSync(join(out, "imported/1-phases"), join(out, "phases"));
  daemons = [(d = new InProcessDaemon(sb, work))];
  expect(work.calls.map((c) => c.drafts)).toEqual([[{ slug: "store", title: "Session storage", dependsOn: [], body: "Tables for sessions." }], [{ slug: "store", title: "Session storage", dependsOn: [], body: "Tables for sessions." }]]);
  await d.stop();
  daemons = [new InProcessDaemon(sb, work)];
  expect(work.calls).toHaveLength(2);
});

test("troupe discuss: decisions are kept with the initiative, served, and given to the next mode agent as context", async () => {
  const work = setUp();
  const d = new InProcessDaemon(sb, work);
  daemons.push(d);
  const decision = ["---", "title: Sessions live in SQLite", "---", "One row per session."];
  const discuss = await sb.json<Agent>(["discuss", "sessions", "--command", `${writes("decisions", { "session-store": decision })} && troupe signal done`, "--json"]);
  expect((await d.ended(discuss.id)).status).toBe("done");
  const res = await fetch("http://troupe/v1/initiatives/sessions/decisions", { unix: sb.socket });
  expect(await res.json()).toEqual({ decisions: [{ slug: "session-store", title: "Sessions live in SQLite", body: "One row per session." }] });
  const check = `grep -q "One row per session." .troupe/input/context/decisions/session-store.md && ${writes("phases", { store: STORE })} && troupe signal done`;
  const plan = await sb.json<Agent>(["plan", "sessions", "--command", check, "--json"]);
  expect((await d.ended(plan.id)).status).toBe("done");
  expect(work.calls.map((c) => c.method)).toEqual(["proposePhases"]);
});

test("troupe detail: the phase is given as phase.md, the task files go to the phase; an unapproved phase is refused", async () => {
  const work = setUp();
  const d = new InProcessDaemon(sb, work);
  daemons.push(d);
  const phase = work.addPhase("in_sessions", "store", "approved");
  work.addPhase("in_sessions", "api", "proposed");
  const task = ["---", "title: Sessions table", "dependsOn: []", "---", "Migration 7; test: tests/store/sessions.test.ts."];
  const check = `grep -q "id: ${phase.id}" .troupe/input/phase.md && test -f .troupe/input/context/phases/api.md && ${writes("tasks", { table: task })} && troupe signal done`;
  const started = await sb.json<Agent>(["detail", "sessions/store", "--command", check, "--json"]);
  expect((await d.ended(started.id)).error).toBeNull();
  expect(work.calls).toEqual([{ method: "proposeTasks", target: phase.id, agentId: started.id, drafts: [{ slug: "table", title: "Sessions table", dependsOn: [], body: "Migration 7; test: tests/store/sessions.test.ts." }] }]);
  const r = await sb.run(["detail", "sessions/api", "--command", "true"]);
  expect([r.code, r.stderr]).toEqual([1, "troupe: phase api is proposed; only an approved phase is detailed\n"]);
});

test("a mode run on an unknown initiative or without a work model is one clear line, exit 1", async () => {
  setUp();
  daemons.push(new InProcessDaemon(sb, null));
  const r = await sb.run(["plan", "sessions", "--command", "true"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe("troupe: this daemon has no work model (initiatives, phases, tasks) to run modes on\n");
  await daemons[0]!.stop();
  daemons = [new InProcessDaemon(sb, new MemoryWork())];
  const unknown = await sb.run(["detail", "sessions/nope", "--command", "true"]);
  expect(unknown.stderr).toBe("troupe: no phase 'sessions/nope'\n");
});
