import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { ScriptedAgents } from "../support/dispatch-agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Initiative, PhaseTree } from "../../src/protocol/work.ts";

/**
 * `troupe dispatch` end to end: the compiled daemon with the real work model, a real repository
 * and real agent processes (the generic provider running scripted agents that write proposal
 * files and commit), from plan to a completed initiative whose branch holds every task's work.
 */

let sb: Sandbox;
let agents: ScriptedAgents;
afterEach(async () => {
  await sb?.close();
});

/** The person who dispatches: their identity is what merges are made as. */
const DEE = { GIT_AUTHOR_NAME: "Dee Spatcher", GIT_AUTHOR_EMAIL: "dee@example.invalid", GIT_COMMITTER_NAME: "Dee Spatcher", GIT_COMMITTER_EMAIL: "dee@example.invalid" };

async function setUp(phases: Record<string, string[]>): Promise<Initiative> {
  sb = new Sandbox();
  agents = new ScriptedAgents(sb.runtime);
  const init = await sb.json<Initiative>(["initiative", "new", "Shop", "--goal", "# Shop\n\nA shop.", "--json"]);
  const lines = ["mkdir -p .troupe/output/phases"];
  for (const [slug, deps] of Object.entries(phases)) {
    lines.push(`printf '%s' '---\ntitle: Phase ${slug}\ndependsOn: [${deps.join(", ")}]\n---\nDo ${slug}.\n' > .troupe/output/phases/${slug}.md`);
  }
  agents.script("plan", "plan", lines.join("\n"));
  const planner = await sb.json<Agent>(["plan", "shop", "--command", agents.command, "--json"]);
  await waitFor("the plan", async () => (await tree()).phases.length === Object.keys(phases).length);
  expect((await agent(planner.id)).status).toBe("done");
  await sb.json(["approve", "--all", "shop", "--json"]);
  return init;
}

const tree = () => sb.json<PhaseTree>(["phases", "shop", "--json"]);
const agent = async (id: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.id === id)!;
const dispatch = (concurrency: number) => sb.json<Initiative>(["dispatch", "shop", "--concurrency", String(concurrency), "--command", agents.command, "--json"], { env: DEE });
const tasks = async () => (await tree()).phases.flatMap((p) => p.tasks);
/** The initiative branch's merge commits, oldest first: `<subject>|<author>`. */
const merges = () => sb.git("log", "--first-parent", "--merges", "--reverse", "--format=%s|%an", "troupe-initiative/shop").trim().split("\n").filter(Boolean);

async function completed(timeoutMs = 60_000): Promise<PhaseTree> {
  let seen = "";
  try {
    return await waitFor(
      "the initiative to complete",
      async () => {
        const t = await tree();
        const all = t.phases.flatMap((p) => p.tasks);
        seen = all.map((k) => `${k.slug}:${k.status}${k.agent ? `@${k.agent}` : ""}`).join(" ");
        const stuck = all.find((k) => k.status === "failed" || k.status === "blocked");
        if (stuck) throw new Error(`task ${stuck.slug} is ${stuck.status}: ${stuck.reason}`);
        return t.initiative.status === "completed" ? t : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    // what a timeout needs to be read: each task's state, what ran, and the agents
    const ls = await sb.json<Agent[]>(["ls", "--json"]).catch(() => []);
    const states = ls.map((a) => `${a.name}:${a.status}`).join(" ");
    let log = "";
    try {
      log = readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8").split("\n").slice(-60).join("\n    ");
    } catch {}
    throw new Error(`${(err as Error).message}\n  tasks: ${seen}\n  runs: ${agents.runs().join(", ")}\n  agents: ${states}\n  daemon log:\n    ${log}`);
  }
}

/** `sh -e` lines that wait (up to 20 s) for a file, failing the script otherwise. */
const awaitFile = (path: string) => `i=0; while [ ! -f ${path} ]; do i=$((i+1)); [ $i -lt 400 ] || { echo "no ${path}"; exit 1; }; sleep 0.05; done`;

test("plan → approve → detail → two tasks in parallel, a third after both → merged in order → completed", async () => {
  await setUp({ core: [], docs: ["core"] });
  agents.detail("core", { a: { title: "Task a" }, b: { title: "Task b" }, c: { title: "Task c", dependsOn: ["a", "b"] } });
  agents.detail("docs", { d: { title: "Task d" } });
  // a and b each wait until the other started: they only pass when they run at once
  agents.commits("a", "a.txt", "a", `touch ${agents.dir}/started-a\n${awaitFile(`${agents.dir}/started-b`)}`);
  agents.commits("b", "b.txt", "b", `touch ${agents.dir}/started-b\n${awaitFile(`${agents.dir}/started-a`)}`);
  // c starts from the initiative branch once a and b are merged: it must see their files
  agents.commits("c", "c.txt", "c", "test -f a.txt && test -f b.txt");
  agents.commits("d", "d.txt", "d", "test -f c.txt");

  const init = await dispatch(2);
  expect(init.dispatch).toMatchObject({ concurrency: 2, provider: "generic", command: agents.command });
  const done = await completed();

  expect(done.phases.map((p) => [p.slug, p.status])).toEqual([["core", "completed"], ["docs", "completed"]]);
  expect(done.initiative.dispatch).toBeNull();
  const all = await tasks();
  expect(all.map((t) => [t.slug, t.status])).toEqual([["a", "completed"], ["b", "completed"], ["c", "completed"], ["d", "completed"]]);
  // every task's branch is in the initiative branch, merged once each, c after a and b, d last, as the dispatcher
  for (const t of all) sb.git("merge-base", "--is-ancestor", t.branch!, "troupe-initiative/shop");
  const log = merges();
  expect(log).toHaveLength(4);
  expect(log.slice(0, 2).map((m) => m.split(":")[0]).sort()).toEqual(["Merge task core/a", "Merge task core/b"]);
  expect(log.slice(2)).toEqual(["Merge task core/c: Task c|Dee Spatcher", "Merge task docs/d: Task d|Dee Spatcher"]);
  for (const f of ["a.txt", "b.txt", "c.txt", "d.txt"]) expect(sb.git("show", `troupe-initiative/shop:${f}`).trim()).toBe(f[0]!);
  expect(agents.runs().sort()).toEqual(["detail core", "detail docs", "execute a", "execute b", "execute c", "execute d", "plan plan"]);
  // never the person's checkout; troupe's merge worktree is gone once done, so the person can check the branch out
  expect(sb.git("symbolic-ref", "--short", "HEAD").trim()).toBe("main");
  expect(sb.git("worktree", "list")).not.toContain("_initiative-shop");
  sb.git("checkout", "-q", "troupe-initiative/shop");
}, 120_000);

/** Two tasks writing the same new file from the same base: whichever merges second conflicts. */
async function conflicting(resolve: string): Promise<void> {
  await setUp({ core: [] });
  agents.detail("core", { x: { title: "Task x" }, y: { title: "Task y" } });
  agents.commits("x", "shared.txt", "x");
  agents.commits("y", "shared.txt", "y");
  agents.script("resolve", "x", resolve);
  agents.script("resolve", "y", resolve);
  await dispatch(2);
}

test("a conflict is resolved by the task's agent, resumed once in its worktree, then merged", async () => {
  await conflicting("git merge troupe-initiative/shop || true\nprintf 'x\\ny\\n' > shared.txt\ngit add shared.txt\ngit commit -q -m resolved");
  const done = await completed();
  expect(done.phases[0]!.tasks.map((t) => [t.slug, t.status, t.conflicts])).toEqual([["x", "completed", null], ["y", "completed", null]]);
  expect(sb.git("show", "troupe-initiative/shop:shared.txt")).toBe("x\ny\n");
  const resolves = agents.runs().filter((r) => r.startsWith("resolve"));
  expect(resolves).toHaveLength(1);
  expect(merges()).toHaveLength(2);
}, 120_000);

test("a conflict the agent cannot resolve blocks the task with its files; both branches stay", async () => {
  // the resumed agent ends done without merging anything
  await conflicting("true");
  const blocked = await waitFor("a task to be blocked", async () => (await tasks()).find((t) => t.status === "blocked"), 60_000);
  const other = (await tasks()).find((t) => t.id !== blocked.id)!;
  expect(other.status).toBe("completed");
  expect(blocked.conflicts).toEqual(["shared.txt"]);
  expect(blocked.reason).toContain("still conflicts in shared.txt");
  // nothing force-merged, nothing lost: the initiative branch holds the other task only, the blocked one's commit stays on its branch
  expect(sb.git("show", "troupe-initiative/shop:shared.txt").trim()).toBe(other.slug);
  expect(sb.git("show", `${blocked.branch}:shared.txt`).trim()).toBe(blocked.slug);
  expect(merges()).toHaveLength(1);
  expect(agents.runs().filter((r) => r.startsWith("resolve"))).toHaveLength(1);
  const text = (await sb.run(["phases", "shop"])).stdout;
  expect(text).toContain(`✗ shop/${blocked.slug}  blocked`);
  expect(text).toContain("conflicts: shared.txt");
  const t = await tree();
  expect([t.phases[0]!.status, t.initiative.status]).toEqual(["blocked", "active"]);
}, 120_000);

test("kill -9 of the daemon in the middle of dispatch: it goes on, nothing runs or merges twice", async () => {
  await setUp({ core: [] });
  const slugs = ["t1", "t2", "t3", "t4", "t5", "t6"];
  agents.detail("core", Object.fromEntries(slugs.map((s, i) => [s, { title: `Task ${s}`, dependsOn: i >= 3 ? [slugs[i - 3]!] : [] }])));
  // each waits for its gate: the test decides when it ends
  for (const s of slugs) agents.commits(s, `${s}.txt`, s, awaitFile(`${agents.dir}/go-${s}`).replace("400", "1200"));
  await dispatch(2);
  const kill = async () => {
    const pid = await sb.daemonPid();
    process.kill(pid!, "SIGKILL");
    await waitFor("the daemon to die", () => {
      try {
        process.kill(pid!, 0);
        return false;
      } catch {
        return true;
      }
    });
  };
  const gate = (s: string) => Bun.write(`${agents.dir}/go-${s}`, "");
  await waitFor("two tasks under way", async () => (await tasks()).filter((t) => t.status === "in_progress" && t.agent).length === 2);
  await kill();
  await gate("t1");
  // any command starts a daemon again; it merges t1 (its agent ended while no daemon ran) and goes on
  await waitFor("t1 merged", async () => (await tasks()).find((t) => t.slug === "t1")?.status === "completed", 30_000);
  await gate("t2");
  await kill();
  for (const s of slugs.slice(2)) await gate(s);
  await waitFor("the daemon back", async () => (await tasks()).length === 6);
  await completed(90_000);
  expect(agents.runs().sort()).toEqual(["detail core", ...slugs.map((s) => `execute ${s}`), "plan plan"]);
  expect(merges()).toHaveLength(6);
  const executes = (await sb.json<Agent[]>(["ls", "--json"])).filter((a) => a.mode === "execute");
  expect(executes).toHaveLength(6);
}, 180_000);

test("a start the daemon died in (claimed, no agent recorded) goes back to pending and runs once", async () => {
  await setUp({ core: [] });
  agents.detail("core", { x: { title: "Task x" } });
  agents.commits("x", "x.txt", "x");
  const phase = (await tree()).phases[0]!;
  await sb.json(["detail", `shop/${phase.slug}`, "--command", agents.command, "--json"]);
  await waitFor("task x", async () => (await tasks()).length === 1);
  await sb.run(["daemon", "stop"]);
  // what a daemon killed between the claim and the spawn leaves
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  db.run("UPDATE tasks SET status = 'in_progress', agent_id = NULL WHERE slug = 'x'");
  db.close();
  await dispatch(1);
  await completed();
  expect(agents.runs().filter((r) => r.startsWith("execute"))).toEqual(["execute x"]);
  expect(merges()).toHaveLength(1);
}, 120_000);

test("dispatch --stop merges nothing more; a merge made but not recorded counts once the next dispatch finds it", async () => {
  await setUp({ core: [] });
  agents.detail("core", { x: { title: "Task x" } });
  agents.commits("x", "x.txt", "x", awaitFile(`${agents.dir}/go-x`));
  await dispatch(1);
  const running = await waitFor("x under way", async () => (await tasks()).find((t) => t.slug === "x" && t.agent));
  const stopped = await sb.json<Initiative>(["dispatch", "shop", "--stop", "--json"]);
  expect(stopped.dispatch).toBeNull();
  await Bun.write(`${agents.dir}/go-x`, "");
  const agentId = (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === running.agent)!.id;
  await waitFor("x's agent done", async () => (await agent(agentId)).status === "done");
  expect((await tasks())[0]!.status).toBe("in_progress");
  expect(merges()).toHaveLength(0);
  // a daemon killed right after `git merge` committed: the merge is in the branch, not in the store
  const wt = join(sb.runtime, "by-hand");
  sb.git("worktree", "add", "-q", wt, "troupe-initiative/shop");
  Bun.spawnSync(["git", "-C", wt, "merge", "--no-ff", "--no-edit", running.branch!], { env: sb.env });
  // and the person committed a fix on the initiative branch since: x's branch is no longer its second parent
  Bun.spawnSync(["sh", "-c", "echo fix > fix.txt && git add fix.txt && git commit -q -m fix"], { cwd: wt, env: sb.env });
  sb.git("worktree", "remove", "--force", wt);
  const commit = sb.git("rev-parse", "troupe-initiative/shop").trim();
  await dispatch(1);
  await completed();
  expect(merges()).toHaveLength(1);
  expect(sb.git("rev-parse", "troupe-initiative/shop").trim()).toBe(commit);
  expect(sb.git("show", "troupe-initiative/shop:x.txt").trim()).toBe("x");
  const work = (await (await fetch("http://troupe/v1/initiatives/shop/work", { unix: sb.socket })).json()) as { tasks: { mergedAt: number | null }[] };
  expect(work.tasks[0]!.mergedAt).not.toBeNull();
}, 120_000);

test("a task whose agent left changes uncommitted merges only after the resume that commits them", async () => {
  await setUp({ core: [] });
  agents.detail("core", { x: { title: "Task x" } });
  agents.commits("x", "x.txt", "x", "echo later > later.txt");
  agents.script("commit", "x", "git add later.txt\ngit commit -q -m 'x: later.txt'");
  await dispatch(1);
  await completed();
  expect(agents.runs().filter((r) => r.endsWith(" x"))).toEqual(["execute x", "commit x"]);
  expect(sb.git("show", "troupe-initiative/shop:later.txt").trim()).toBe("later");
  expect(merges()).toHaveLength(1);
}, 120_000);

test("tasks whose files overlap never run at once, with the waiting one saying why; the others run beside them", async () => {
  await setUp({ core: [] });
  // w and r could write the same file; d names its own folder; n has no list: the rest of the phase
  agents.detail("core", {
    w: { title: "Task w", files: ["src/api.ts"] },
    r: { title: "Task r", files: ["src/*.ts"] },
    d: { title: "Task d", files: ["docs/**"] },
    n: { title: "Task n" },
  });
  const times = `${agents.dir}/times.log`;
  /** Records its start and end (ns) around a wait for the test's go-ahead, then commits its file. */
  const timed = (slug: string, file: string) =>
    agents.commits(slug, file, slug, `echo "start ${slug} $(date +%s%N)" >> ${times}\n${awaitFile(`${agents.dir}/go`)}\nmkdir -p src docs\necho "end ${slug} $(date +%s%N)" >> ${times}`);
  timed("w", "src/api.ts");
  timed("r", "src/api.ts");
  timed("d", "docs/d.md");
  timed("n", "n.txt");
  await dispatch(4);

  // three under way, the fourth (w or r, whichever came second) waiting for the other with the glob that meets
  const held = await waitFor("one of w and r to wait for the other", async () => {
    const all = await tasks();
    const running = all.filter((t) => t.status === "in_progress").map((t) => t.slug).sort();
    const waiting = all.find((t) => t.waiting);
    return running.length === 3 && waiting ? { running, waiting } : undefined;
  });
  const first = held.waiting.slug === "r" ? "w" : "r";
  expect(held.waiting.waiting).toBe(first === "w" ? "waits for w (src/api.ts)" : "waits for r (src/*.ts)");
  expect(held.running).toEqual([first, "d", "n"].sort());
  expect(held.waiting.status).toBe("pending");
  // the person reads the same in troupe phases
  expect((await sb.run(["phases", "shop"])).stdout).toContain(held.waiting.waiting!);
  writeFileSync(join(agents.dir, "go"), "");
  const done = await completed();

  // the second of w and r started after the first ended (merged: the task stays under way until then)
  const at = new Map(readFileSync(times, "utf8").trim().split("\n").map((l) => { const [what, slug, ns] = l.split(" "); return [`${what} ${slug}`, BigInt(ns!)]; }));
  expect(at.get(`start ${held.waiting.slug}`)! > at.get(`end ${first}`)!).toBe(true);
  expect(done.phases[0]!.tasks.map((t) => [t.slug, t.status, t.waiting]).sort()).toEqual(
    ["d", "n", "r", "w"].map((slug) => [slug, "completed", null]),
  );
  // the second one started from the branch with the first merged: no conflict, one merge each
  expect(merges()).toHaveLength(4);
  expect(sb.git("show", "troupe-initiative/shop:src/api.ts").trim()).toBe(held.waiting.slug);
}, 120_000);

test("bad input to dispatch is one clear line and a non-zero exit; an agent may not dispatch", async () => {
  sb = new Sandbox();
  await sb.json(["initiative", "new", "Shop", "--goal", "g", "--json"]);
  const cases: [string[], number, string][] = [
    [["dispatch"], 2, "dispatch takes one INITIATIVE"],
    [["dispatch", "shop", "--concurrency", "0"], 2, "--concurrency takes a whole number from 1 to 64, not '0'"],
    [["dispatch", "shop", "--concurrency", "x"], 2, "not 'x'"],
    [["dispatch", "shop", "--stop", "--concurrency", "2"], 2, "--stop takes no other option"],
    [["dispatch", "nope"], 1, "no initiative 'nope'"],
    [["dispatch", "shop", "--provider", "nobody"], 1, "no provider 'nobody'"],
    [["dispatch", "shop", "--provider", "generic"], 1, "the generic provider needs --command"],
  ];
  for (const [args, code, message] of cases) {
    const r = await sb.run(args);
    const lines = r.stderr.trim().split("\n");
    // an error is one line; a usage error (2) adds the usage line
    expect([r.code, lines.length, lines[0]]).toEqual([code, code === 2 ? 2 : 1, expect.stringContaining(message)]);
  }
  // a person without a git identity is told what to set, and nothing is dispatched
  const r = await sb.run(["dispatch", "shop", "--command", "true"], {
    env: { GIT_AUTHOR_NAME: "", GIT_AUTHOR_EMAIL: "", GIT_COMMITTER_NAME: "", GIT_COMMITTER_EMAIL: "", HOME: sb.runtime, GIT_CONFIG_NOSYSTEM: "1", EMAIL: "" },
  });
  expect([r.code, r.stderr]).toEqual([1, expect.stringContaining("set user.name and user.email")]);
  expect((await sb.json<Initiative>(["initiative", "show", "shop", "--json"])).dispatch).toBeNull();
  const denied = await fetch("http://troupe/v1/initiatives/shop/dispatch", { method: "POST", unix: sb.socket, headers: { authorization: "Bearer forged", "content-type": "application/json" }, body: "{}" });
  expect(denied.status).toBe(401);
}, 60_000);
