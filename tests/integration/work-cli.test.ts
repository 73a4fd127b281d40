import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { composeAgents } from "../../src/agents/compose.ts";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { WorkItems } from "../../src/protocol/api-work.ts";
import { PhaseTreeSchema, type Initiative, type PhaseTree } from "../../src/protocol/work.ts";
import { createStore } from "../../src/store/index.ts";
import { WorkService } from "../../src/work/service.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const draft = (slug: string, ...dependsOn: string[]) => ({ slug, title: `Title of ${slug}`, body: `Body of ${slug}\n`, dependsOn });

/**
 * Proposals come from plan and detail agents' files (the modes code); here they go through the
 * same sink on the workspace's store while the daemon is stopped, and everything after is the CLI.
 */
async function propose<T>(fn: (work: WorkService) => T): Promise<T> {
  await sb.run(["daemon", "stop"]);
  const log = new Logger(join(sb.dir, ".troupe", "test.log"));
  const store = createStore(join(sb.dir, ".troupe", "troupe.db"), log);
  const bus = new EventBus(store.events, log);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  try {
    return fn(new WorkService({ root: sb.dir, store, bus, agents: composeAgents({ ws, store, bus, log, binDir: sb.runtime }).resume }));
  } finally {
    store.close();
  }
}

/** An EDITOR that logs what it was shown, then writes the first content, or the second once shown an error. */
function editorScript(first: string, second = first): string {
  const path = join(sb.runtime, `editor-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(join(sb.runtime, "first.md"), first);
  writeFileSync(join(sb.runtime, "second.md"), second);
  writeFileSync(
    path,
    `#!/bin/sh\ncat "$1" >> ${sb.runtime}/shown.log\nif grep -q '^# ' "$1"; then cp ${sb.runtime}/second.md "$1"; else cp ${sb.runtime}/first.md "$1"; fi\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe("the work model through the CLI", () => {
  test("initiative new makes the branch from the base; ls, show, archive; bad input is one line", async () => {
    sb = new Sandbox();
    writeFileSync(join(sb.runtime, "goal.md"), "# Checkout\n\nShip the new checkout.\n");
    sb.git("checkout", "-q", "-b", "feature");
    sb.git("commit", "-q", "--allow-empty", "-m", "on feature");
    const init = await sb.json<Initiative>(["initiative", "new", "Checkout v2", "--goal-file", join(sb.runtime, "goal.md"), "--base", "main", "--review", "tasks", "--json"]);
    expect(init).toMatchObject({ slug: "checkout-v2", branch: "troupe-initiative/checkout-v2", baseRef: "main", review: "tasks", goal: "# Checkout\n\nShip the new checkout." });
    expect(sb.git("rev-parse", "troupe-initiative/checkout-v2").trim()).toBe(sb.git("rev-parse", "main").trim());
    const fromHere = await sb.json<Initiative>(["initiative", "new", "Checkout v2", "--goal", "again", "--json"]);
    expect(fromHere).toMatchObject({ slug: "checkout-v2-2", baseRef: "feature", review: "phases" });
    expect((await sb.json<Initiative[]>(["initiative", "ls", "--json"])).map((i) => i.slug)).toEqual(["checkout-v2", "checkout-v2-2"]);
    const show = await sb.run(["initiative", "show", "checkout-v2"]);
    expect(show.stdout).toContain("branch:  troupe-initiative/checkout-v2\n");
    expect((await sb.json<Initiative>(["initiative", "archive", init.id, "--json"])).status).toBe("archived");

    const cases: [string[], number, string][] = [
      [["initiative", "new", "X", "--goal", "g", "--base", "nope"], 1, "troupe: no commit at 'nope' (a new repository needs a first commit)\n"],
      [["initiative", "new", "X"], 2, "troupe: give the goal as --goal TEXT or --goal-file F\n"],
      [["initiative", "new", "X", "--goal", "g", "--review", "all"], 2, "troupe: --review takes phases, tasks or none, not 'all'\n"],
      [["initiative", "show", "nope"], 1, "troupe: no initiative 'nope' (give its id or slug; 'troupe initiative ls' lists them)\n"],
      [["initiative", "frob"], 2, "troupe: no initiative subcommand 'frob' (new, ls, show, budget, archive, diff, push or pr)\n"],
      [["phases", "nope"], 1, "troupe: no initiative 'nope' (give its id or slug; 'troupe initiative ls' lists them)\n"],
    ];
    for (const [args, code, line] of cases) {
      const r = await sb.run(args);
      expect([r.code, r.stderr.split("\n")[0] + "\n"]).toEqual([code, line]);
    }
  });

  test("proposals, then phases (tree and --json), approve, reject, edit and retry", async () => {
    sb = new Sandbox();
    await sb.json(["initiative", "new", "Shop", "--goal", "a shop", "--json"]);
    const [db, api, ui, docs] = await propose((w) => w.proposePhases("shop", null, [draft("db"), draft("api", "db"), draft("ui", "api"), draft("docs")]));
    const tree = PhaseTreeSchema.parse(await sb.json<PhaseTree>(["phases", "shop", "--json"]));
    expect(tree.phases.map((p) => [p.slug, p.status, p.dependsOn])).toEqual([
      ["db", "proposed", []],
      ["docs", "proposed", []],
      ["api", "proposed", [db!.id]],
      ["ui", "proposed", [api!.id]],
    ]);
    // exactly the documented shape (with why a phase or task waits: dispatch's reasons and conflicts)
    expect(Object.keys(tree).sort()).toEqual(["initiative", "phases"]);
    expect(Object.keys(tree.phases[0]!).sort()).toEqual(["dependsOn", "id", "pin", "reason", "slug", "status", "tasks", "title"]);
    expect((await sb.run(["phases", "shop"])).stdout).toContain("  ! shop/api  proposed  Title of api  after db\n");

    const approved = await sb.json<WorkItems>(["approve", "shop/db", api!.id, "--json"]);
    expect(approved.phases.map((p) => [p.slug, p.status])).toEqual([["db", "approved"], ["api", "approved"]]);
    const again = await sb.run(["approve", "shop/db"]);
    expect([again.code, again.stderr]).toEqual([1, "troupe: phase db is approved; only a proposed phase can be approved\n"]);
    const rej = await sb.run(["reject", "shop/ui", "--reason", "too vague"]);
    expect([rej.code, rej.stdout]).toEqual([0, `rejected phase ui (${ui!.id}): rejected\n`]);
    expect((await sb.run(["reject", "shop/ui"])).code).toBe(2);

    // an edit the daemon refuses opens again with the error on top; the fixed save goes through
    const fix = editorScript("---\ntitle: Docs\ndependsOn: [nope]\n---\nbody\n", "---\ntitle: Docs, rewritten\ndependsOn: [api]\n---\nNew body\n");
    const edited = await sb.run(["edit", "shop/docs"], { env: { EDITOR: fix } });
    expect([edited.code, edited.stderr]).toEqual([0, ""]);
    const shown = readFileSync(join(sb.runtime, "shown.log"), "utf8");
    expect(shown).toStartWith("---\ntitle: Title of docs\ndependsOn: []\n---\nBody of docs\n");
    expect(shown).toContain("# phase docs depends on 'nope': no such phase in initiative shop\n");
    const item = (await sb.json<WorkItems>(["phases", "shop", "--json"])) as unknown as PhaseTree;
    expect(item.phases.find((p) => p.slug === "docs")).toMatchObject({ title: "Docs, rewritten", dependsOn: [api!.id] });

    // a cycle is refused naming it; the same file saved again gives up with that error
    const cycle = editorScript("---\ntitle: Docs\ndependsOn: [docs]\n---\nbody\n");
    const refused = await sb.run(["edit", docs!.id], { env: { EDITOR: cycle } });
    expect([refused.code, refused.stderr]).toEqual([1, "troupe: phase dependencies form a cycle: docs → docs (saved unchanged; nothing changed)\n"]);
    const noEditor = await sb.run(["edit", "shop/db"], { env: { EDITOR: "true" } });
    expect([noEditor.code, noEditor.stdout]).toEqual([0, "no change\n"]);

    const [t1] = await propose((w) => w.proposeTasks("shop/db", null, [draft("t1")]));
    expect(t1!.status).toBe("pending");
    const retry = await sb.run(["retry", "shop/t1"]);
    expect([retry.code, retry.stderr]).toEqual([1, "troupe: task t1 is pending; only a blocked or failed task can be retried\n"]);
    const ask = await sb.run(["ask", "status?", "--task", "shop/t1"]);
    expect([ask.code, ask.stderr]).toEqual([1, "troupe: no agent works task t1 now\n"]);
  });

  test("reject --revise resumes the agent that proposed it, with the reason", async () => {
    sb = new Sandbox();
    const prompts = join(sb.runtime, "prompts.txt");
    await sb.json(["initiative", "new", "Rev", "--goal", "g", "--json"]);
    const planner = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "planner", "--command", `printf '%s|' "$TROUPE_PROMPT" >> ${prompts}; troupe signal done --result planned`, "--json"]);
    await waitFor("the planner done", async () => (await sb.json<Agent[]>(["ls", "--json"]))[0]?.status === "done");
    await propose((w) => w.proposePhases("rev", planner.id, [draft("big")]));
    const r = await sb.run(["reject", "rev/big", "--reason", "split it in two", "--revise"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const told = await waitFor("the planner resumed", () => {
      const text = readFileSync(prompts, "utf8");
      return text.includes("split it in two") ? text : undefined;
    });
    expect(told).toContain("The person rejected your proposed phase 'big' (Title of big).");
    const after = await waitFor("the planner done again", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"]))[0]!;
      return a.status === "done" && a.session === 2 ? a : undefined;
    });
    expect(after.session).toBe(2);
    // an agent may read the plan, never decide on it
    const out = join(sb.runtime, "meddler.txt");
    await sb.json(["spawn", "--no-worktree", "--name", "meddler", "--command", `troupe phases rev >/dev/null; echo "read $?" > ${out}; troupe approve --all rev 2>> ${out}; echo "approve $?" >> ${out}; troupe signal done`, "--json"]);
    const said = await waitFor("the meddler's tries", () => {
      const text = readFileSync(out, "utf8");
      return /^approve \d+$/m.test(text) ? text : undefined;
    });
    expect(said).toBe("read 0\ntroupe: meddler may not approve proposals: only the person may\napprove 1\n");
  });

  test("kill -9 of the daemon loses nothing: state and the event log replay", async () => {
    sb = new Sandbox();
    await sb.json(["initiative", "new", "Crash", "--goal", "g", "--json"]);
    await propose((w) => w.proposePhases("crash", null, [draft("a"), draft("b", "a")]));
    await sb.json(["approve", "--all", "crash", "--json"]);
    const before = await sb.json<PhaseTree>(["phases", "crash", "--json"]);
    const pid = await sb.daemonPid();
    process.kill(pid!, "SIGKILL");
    await waitFor("the daemon gone", async () => (await sb.daemonPid()) !== pid);
    expect(await sb.json<PhaseTree>(["phases", "crash", "--json"])).toEqual(before);
    expect(before.phases.map((p) => p.status)).toEqual(["approved", "approved"]);

    const ctl = new AbortController();
    const res = await fetch("http://troupe/v1/events?since=0&output=none", { unix: sb.socket, signal: ctl.signal });
    const reader = res.body!.getReader();
    let text = "";
    const want = ["initiative:created", "phase:created", "phase:created", "phase:updated", "phase:updated"];
    const types = () => [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    await waitFor("the replayed events", async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return types().length >= want.length;
    });
    ctl.abort();
    expect(types()).toEqual(want);
    const versions = [...text.matchAll(/^data: (.+)$/gm)].map((m) => (JSON.parse(m[1]!) as { phase?: { slug: string; version: number } }).phase).filter(Boolean);
    expect(versions.map((p) => `${p!.slug}@${p!.version}`)).toEqual(["a@1", "b@1", "a@2", "b@2"]);
  });
});
