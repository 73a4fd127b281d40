import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { GcReport } from "../../src/protocol/api-gc.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

function writeConfig(config: unknown) {
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify(config));
}

async function agent(name: string): Promise<Agent | undefined> {
  return (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
}

async function until(name: string, check: (a: Agent) => boolean, what = "its state"): Promise<Agent> {
  return waitFor(`${name}: ${what}`, async () => {
    const a = await agent(name);
    return a && check(a) ? a : undefined;
  });
}

const isAsked = `printf %s "$TROUPE_PROMPT" | grep -q "ended with uncommitted changes"`;

describe("cleanup never loses work", () => {
  test("a done agent with uncommitted changes is resumed once and commits exactly those paths", async () => {
    sb = new Sandbox();
    // first run leaves wip.txt uncommitted; asked to commit, it commits what it was told
    const cmd = `if ${isAsked}; then printf %s "$TROUPE_PROMPT" | grep -q -- "- wip.txt" && git add wip.txt && git commit -qm "commit leftovers"; else echo wip > wip.txt; fi; troupe signal done --result ok`;
    await sb.json(["spawn", "--name", "tidy", "--command", cmd, "--json"]);
    const a = await until("tidy", (x) => x.status === "done" && x.session === 2, "done after its commit resume");
    expect(a.uncommitted).toBe(false);
    expect(sb.git("log", "--format=%s", "-1", "troupe/tidy").trim()).toBe("commit leftovers");
    expect(sb.git("show", "--name-only", "--format=", "troupe/tidy").trim()).toBe("wip.txt");
  });

  test("one that stays dirty is flagged uncommitted and kept; rm refuses it naming the paths; rm --force saves a commit, the branch stays", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--name", "messy", "--command", "echo x >> a.txt; mkdir -p d; echo y > d/b.txt; troupe signal done", "--json"]);
    const a = await until("messy", (x) => x.uncommitted, "flagged uncommitted");
    expect(a).toMatchObject({ status: "done", session: 2 });
    expect((await sb.run(["ls"])).stdout).toContain("done (uncommitted)");
    // gc keeps it whatever keepDays says
    writeConfig({ worktree: { keepDays: 0 } });
    const report = await sb.json<GcReport>(["gc", "--json"]);
    expect(report.kept).toEqual([{ agent: "messy", worktree: a.worktree!, reason: "flagged uncommitted: its changes were not committed" }]);
    expect(existsSync(join(a.worktree!, "a.txt"))).toBe(true);

    const refused = await sb.run(["rm", "messy"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("troupe: messy's worktree has uncommitted changes: a.txt, d/b.txt; commit them, or 'troupe rm --force' saves them as a commit on troupe/messy\n");
    expect(existsSync(a.worktree!)).toBe(true);
    expect((await agent("messy"))).toBeDefined();

    const forced = await sb.run(["rm", "--force", "messy"]);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    expect(existsSync(a.worktree!)).toBe(false);
    expect(sb.git("show", "--name-only", "--format=%s", "troupe/messy").trim().split("\n")).toEqual(["troupe: uncommitted changes of messy, saved at rm --force", "", "a.txt", "d/b.txt"]);
    expect(sb.git("show", "troupe/messy:d/b.txt")).toBe("y\n");
    // the branch stays, so the name stays taken; gc lists it as nobody's, deleting nothing
    const gc = await sb.json<GcReport>(["gc", "--json"]);
    expect(gc.orphanBranches).toEqual(["troupe/messy"]);
    expect(sb.git("branch", "--list", "troupe/messy").trim()).toBe("troupe/messy");
  });

  test("gc removes only clean worktrees of finished agents idle past keepDays; --dry-run removes nothing; git's stale records are pruned", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--name", "clean", "--command", `if [ -f c.txt ]; then troupe signal done --result "restored $(cat c.txt)"; else echo c > c.txt && git add c.txt && git commit -qm c && troupe signal done; fi`, "--json"]);
    await sb.json(["spawn", "--name", "asks", "--command", `troupe signal questions --question "which?"`, "--json"]);
    await sb.json(["spawn", "--name", "busy", "--command", "sleep 30", "--json"]);
    await sb.json(["spawn", "--name", "vanished", "--command", "troupe signal done", "--json"]);
    const clean = await until("clean", (x) => x.status === "done");
    await until("asks", (x) => x.status === "waiting");
    await until("busy", (x) => x.status === "running");
    const vanished = await until("vanished", (x) => x.status === "done");
    // a worktree folder deleted by hand leaves git's record behind
    rmSync(vanished.worktree!, { recursive: true, force: true });

    const young = await sb.json<GcReport>(["gc", "--dry-run", "--json"]);
    expect(young.removed).toEqual([]);
    expect(young.kept.find((k) => k.agent === "clean")!.reason).toMatch(/^idle for 0\.0 days of the 7 days worktree\.keepDays keeps$/);

    writeConfig({ worktree: { keepDays: 0 } });
    const dry = await sb.json<GcReport>(["gc", "--dry-run", "--json"]);
    expect(dry.dryRun).toBe(true);
    expect(dry.removed).toEqual([{ agent: "clean", worktree: clean.worktree!, branch: "troupe/clean" }]);
    expect(dry.pruned.join("\n")).toContain("vanished");
    expect(existsSync(clean.worktree!)).toBe(true);
    expect(sb.git("worktree", "list", "--porcelain")).toContain("vanished");

    const done = await sb.json<GcReport>(["gc", "--json"]);
    expect(done.removed.map((r) => r.agent)).toEqual(["clean"]);
    expect(Object.fromEntries(done.kept.map((k) => [k.agent, k.reason]))).toEqual({ asks: "waiting for answers", busy: "running: a session is open" });
    expect(existsSync(clean.worktree!)).toBe(false);
    expect(sb.git("worktree", "list", "--porcelain")).not.toContain("vanished");
    expect(sb.git("for-each-ref", "--format=%(refname:short)", "refs/heads/troupe/").trim().split("\n").sort()).toEqual(["troupe/asks", "troupe/busy", "troupe/clean", "troupe/vanished"]);
    expect(done.orphanBranches).toEqual([]);
    const text = await sb.run(["gc"]);
    expect(text.stdout).toContain("kept busy's worktree: running: a session is open");

    // resuming an agent whose worktree is gone recreates it from its branch first
    const resumed = await sb.json<Agent>(["resume", "clean", "--message", "again", "--json"]);
    expect(resumed.worktree).toBe(clean.worktree);
    expect(await until("clean", (x) => x.status === "done" && x.session === 2)).toMatchObject({ result: "restored c" });
    // and with keepDays 0 the daemon's own deadline timer removes it again once it is idle and clean
    await waitFor("the reaper to remove clean's worktree", () => !existsSync(clean.worktree!));
    expect(sb.git("branch", "--list", "troupe/clean").trim()).toBe("troupe/clean");
  });
});

describe("worktrees ready to work in", () => {
  test(".worktreeinclude and worktree.include copy ignored files (only ignored ones) into each new worktree", async () => {
    sb = new Sandbox();
    writeFileSync(join(sb.dir, ".gitignore"), ".env\nlocal/\n*.log\nsecret.key\n");
    writeFileSync(join(sb.dir, ".worktreeinclude"), ".env\nlocal/\nnot-ignored.txt\n");
    sb.git("add", ".gitignore", ".worktreeinclude");
    sb.git("commit", "-qm", "ignore");
    writeFileSync(join(sb.dir, ".env"), "API_URL=http://localhost\n");
    mkdirSync(join(sb.dir, "local", "deep"), { recursive: true });
    writeFileSync(join(sb.dir, "local", "deep", "conf.json"), "{}\n");
    writeFileSync(join(sb.dir, "debug.log"), "noise\n");
    writeFileSync(join(sb.dir, "secret.key"), "k\n");
    writeFileSync(join(sb.dir, "not-ignored.txt"), "the person's work in progress\n");
    writeConfig({ worktree: { include: ["*.log"] } });
    const a = await sb.json<Agent>(["spawn", "--name", "ready", "--command", `troupe signal done --result "$(cat .env)"`, "--json"]);
    expect(await until("ready", (x) => x.status === "done")).toMatchObject({ result: "API_URL=http://localhost" });
    expect(existsSync(join(a.worktree!, "local", "deep", "conf.json"))).toBe(true);
    expect(existsSync(join(a.worktree!, "debug.log"))).toBe(true);
    // ignored but not asked for; asked for but not ignored (untracked work stays the person's)
    expect(existsSync(join(a.worktree!, "secret.key"))).toBe(false);
    expect(existsSync(join(a.worktree!, "not-ignored.txt"))).toBe(false);
  });

  test("a branch's folder link is never copied through: the file is skipped and named in the log, the others copied", async () => {
    sb = new Sandbox();
    const outside = join(sb.runtime, "exfil");
    mkdirSync(outside);
    writeFileSync(join(sb.dir, ".gitignore"), ".env\nconfig/local.json\n");
    writeFileSync(join(sb.dir, ".worktreeinclude"), ".env\nconfig/local.json\n");
    sb.git("add", ".gitignore", ".worktreeinclude");
    sb.git("commit", "-qm", "ignore");
    mkdirSync(join(sb.dir, "config"));
    writeFileSync(join(sb.dir, "config", "local.json"), '{"secret": "s3cr3t"}\n');
    writeFileSync(join(sb.dir, ".env"), "A=1\n");
    // an agent's branch makes `config` a link out of the worktree, then a worker is spawned from it
    sb.git("checkout", "-qb", "evil");
    renameSync(join(sb.dir, "config"), join(sb.runtime, "config-aside"));
    symlinkSync(outside, join(sb.dir, "config"));
    sb.git("add", "-f", "config");
    sb.git("commit", "-qm", "config is a link");
    sb.git("checkout", "-q", "main");
    renameSync(join(sb.runtime, "config-aside"), join(sb.dir, "config"));
    const a = await sb.json<Agent>(["spawn", "--name", "via-link", "--base", "evil", "--command", `troupe signal done --result "$(cat .env)"`, "--json"]);
    expect(await until("via-link", (x) => x.status === "done")).toMatchObject({ result: "A=1" });
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(a.worktree!, "config")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(sb.dir, ".troupe", "daemon.log"), "utf8")).toMatch(/not copied into .*: config\/local\.json \(.*config is a link/);
  });

  test("worktree.setup is refused until the person trusts the config, then runs in the new worktree before the agent, its output in the agent's log; a failing setup fails the agent", async () => {
    sb = new Sandbox();
    sb.env.XDG_STATE_HOME = join(sb.runtime, "state");
    writeConfig({ worktree: { setup: "echo installing; echo deps > deps.txt" } });
    const refused = await sb.run(["spawn", "--name", "early", "--command", "troupe signal done"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`troupe: ${join(sb.dir, ".troupe", "config.json")} asks to run 'echo installing; echo deps > deps.txt' in each new worktree (worktree.setup); review the file, then run 'troupe trust' to allow it\n`);
    expect(await agent("early")).toBeUndefined();
    expect(sb.git("branch", "--list", "troupe/early").trim()).toBe("");

    const trusted = await sb.run(["trust"]);
    expect(trusted.stdout).toBe(`trusted ${join(sb.dir, ".troupe", "config.json")}: each new worktree runs 'echo installing; echo deps > deps.txt'\n`);
    await sb.json(["spawn", "--name", "setup-ok", "--command", `troupe signal done --result "$(cat deps.txt)"`, "--json"]);
    expect(await until("setup-ok", (x) => x.status !== "running" && x.status !== "starting")).toMatchObject({ status: "done", result: "deps" });
    const log = await sb.run(["logs", "setup-ok", "--raw"]);
    expect(log.stdout).toContain("installing");

    // any change to the file needs a new trust
    writeConfig({ worktree: { setup: "echo broken >&2; exit 7" } });
    expect((await sb.run(["spawn", "--name", "untrusted", "--command", "true"])).code).toBe(1);
    expect((await sb.run(["trust"])).code).toBe(0);
    await sb.json(["spawn", "--name", "setup-bad", "--command", "troupe signal done", "--json"]);
    const bad = await until("setup-bad", (x) => x.status === "failed" || x.status === "done");
    expect(bad.status).toBe("failed");
    expect(bad.error).toStartWith("setup failed: worktree.setup exited 7");
  });

  test("unknown config keys are ignored with a warning in the daemon log, never a refusal", async () => {
    sb = new Sandbox();
    writeConfig({ worktree: { keepDays: 3, futureThing: true }, retries: { max: 2 } });
    await sb.json(["spawn", "--no-worktree", "--name", "newer-config", "--command", "troupe signal done", "--json"]);
    await until("newer-config", (x) => x.status === "done");
    const log = await Bun.file(join(sb.dir, ".troupe", "daemon.log")).text();
    expect(log).toContain("ignoring unknown keys worktree.futureThing, retries");
  });
});

describe("service install", () => {
  test("without a systemd user manager it says so and how else to start the daemon at login", async () => {
    sb = new Sandbox();
    const r = await sb.run(["service", "install"], { env: { XDG_RUNTIME_DIR: join(sb.runtime, "no-systemd") } });
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("troupe: cannot install a systemd user service here: ");
    expect(r.stderr).toContain("daemon start --workspace");
    expect(r.stderr.split("\n").length).toBe(2);
    const printed = await sb.run(["service", "install", "--print"]);
    expect(printed.stdout).toContain(`daemon run --workspace ${sb.dir}`);
  });
});
