/**
 * Dispatch across a pool of three hosts (docs/remotes.md, "Hosts as a pool"): this workspace and
 * two remotes, each a sandbox of its own (its repository, HOME, state and daemon) behind a real
 * OpenSSH server on 127.0.0.1, 2 slots each. The initiative branch goes to a host by git push over
 * that ssh, the task runs under the host's daemon in its own worktree, its branch comes back by git
 * fetch, and the ordered merge happens here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, Sshd } from "../support/sshd.ts";
import { ScriptedAgents } from "../support/dispatch-agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PhaseTree } from "../../src/protocol/work.ts";
import type { PoolHost } from "../../src/protocol/host.ts";

const DEE = { GIT_AUTHOR_NAME: "Dee Spatcher", GIT_AUTHOR_EMAIL: "dee@example.invalid", GIT_COMMITTER_NAME: "Dee Spatcher", GIT_COMMITTER_EMAIL: "dee@example.invalid" };

let local: Sandbox;
const hosts: { name: string; sb: Sandbox; sshd: Sshd }[] = [];
let env: Record<string, string>;
let agents: ScriptedAgents;
let marks: string;

/** A host: its own sandbox (agents unsandboxed: they run the test's scripts, kept under this machine's folder) behind its own sshd. */
async function host(name: string): Promise<{ name: string; sb: Sandbox; sshd: Sshd }> {
  const sb = new Sandbox({ sandboxed: false });
  const home = join(sb.runtime, "home");
  mkdirSync(home);
  const sshd = await Sshd.start({ HOME: home, TROUPE_SOCKET: sb.socket, XDG_STATE_HOME: sb.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
  return { name, sb, sshd };
}

const tree = (slug = "shop") => local.json<PhaseTree>(["phases", slug, "--json"], { env });
const tasks = async (slug = "shop") => (await tree(slug)).phases.flatMap((p) => p.tasks);
/** The initiative branch's merge commits, oldest first: their subjects. */
const merges = (slug = "shop") => local.git("log", "--first-parent", "--merges", "--reverse", "--format=%s", `troupe-initiative/${slug}`).trim().split("\n").filter(Boolean);
const tail = (dir: string) => readFileSync(join(dir, ".troupe", "daemon.log"), "utf8").split("\n").slice(-30).join("\n    ");

/** An initiative `slug` with one approved phase `core` (its plan agent's), planned and approved. */
async function initiative(slug: string): Promise<void> {
  await local.json(["initiative", "new", slug, "--goal", `# ${slug}`, "--json"], { env });
  agents.script("plan", "plan", `mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: Core\ndependsOn: []\n---\nCore.\n' > .troupe/output/phases/core.md`);
  await local.json<Agent>(["plan", slug, "--command", agents.command, "--json"], { env });
  await waitFor("the plan", async () => (await tree(slug)).phases.length === 1, 30_000);
  await local.json(["approve", "--all", slug, "--json"], { env });
}

const dispatch = (slug: string, concurrency: number) => local.json(["dispatch", slug, "--concurrency", String(concurrency), "--command", agents.command, "--json"], { env: { ...env, ...DEE } });

/** Waits for the initiative to complete, failing at once on a failed or blocked task; a timeout says where every task and host stands. */
async function completed(slug: string, timeoutMs: number): Promise<PhaseTree> {
  let seen = "";
  try {
    return await waitFor(
      "the initiative to complete",
      async () => {
        const t = await tree(slug);
        const all = t.phases.flatMap((p) => p.tasks);
        seen = all.map((k) => `${k.slug}:${k.status}${k.host ? `@${k.host}` : ""}${k.waiting ? ` (${k.waiting})` : ""}${k.reason ? ` [${k.reason}]` : ""}`).join(" ");
        const stuck = all.find((k) => k.status === "failed" || k.status === "blocked");
        if (stuck) throw new Error(`task ${stuck.slug} is ${stuck.status}: ${stuck.reason}`);
        return t.initiative.status === "completed" ? t : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    const there = await Promise.all(hosts.map(async (h) => `${h.name}: ${(await h.sb.json<Agent[]>(["ls", "--json"]).catch(() => [])).map((a) => `${a.name}:${a.status}${a.error ? ` (${a.error})` : ""}`).join(" ")}\n    ${tail(h.sb.dir)}`));
    throw new Error(`${(err as Error).message}\n  tasks: ${seen}\n  daemon log:\n    ${tail(local.dir)}\n  hosts:\n  ${there.join("\n  ")}`);
  }
}

describe.skipIf(!HAVE_SSHD)("dispatch across a pool of hosts", () => {
  beforeAll(async () => {
    local = new Sandbox({ sandboxed: false });
    hosts.push(await host("east"), await host("west"));
    // one ssh config reaches both servers: the first's key is let in by the second, whose host key the first's known_hosts holds
    const [a, b] = hosts.map((h) => h.sshd);
    appendFileSync(join(b!.dir, "authorized_keys"), readFileSync(join(a!.dir, "user_key.pub")));
    const bKey = readFileSync(join(b!.dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
    appendFileSync(join(a!.dir, "known_hosts"), `[127.0.0.1]:${b!.port} ${bKey}\n`);
    // the links' ssh, which holds the next fetch (git's upload-pack) 3 s, saying so, once the kill -9 test asks for it
    marks = join(local.runtime, "marks");
    mkdirSync(marks);
    const ssh = join(local.runtime, "ssh");
    writeFileSync(ssh, `#!/bin/sh\ncase "$*" in *git-upload-pack*) mv "${marks}/slow-fetch" "${marks}/fetching" 2>/dev/null && sleep 3 ;; esac\nexec ${a!.sshCommand} "$@"\n`, { mode: 0o755 });
    env = { TROUPE_SSH_COMMAND: ssh, TROUPE_REMOTE_TIMEOUT: "5" };
    for (const h of hosts) {
      const r = await local.run(["remote", "add", h.name, `127.0.0.1:${h.sshd.port}`, "--path", h.sb.dir, "--troupe", BIN, "--slots", "2"], { env });
      expect(r.stderr).toBe("");
    }
    mkdirSync(join(local.dir, ".troupe"), { recursive: true });
    writeFileSync(join(local.dir, ".troupe", "config.json"), JSON.stringify({ dispatch: { slots: 2, hostGraceSeconds: 4 } }));
    agents = new ScriptedAgents(local.runtime);
  }, 60_000);

  afterAll(async () => {
    await local?.close();
    for (const h of hosts) {
      await h.sb.close();
      h.sshd.close();
    }
  });

  test("a phase of 9 tasks runs across the three hosts: merged here in dependency order, once each; tasks owning the same files never at once", async () => {
    await initiative("shop");
    // t2 and t3 own the same folder; t7 needs t1 and t2, t8 t3 and t4, t9 both
    const deps: Record<string, string[]> = { t7: ["t1", "t2"], t8: ["t3", "t4"], t9: ["t7", "t8"] };
    const owned: Record<string, string[]> = { t2: ["shared/**"], t3: ["shared/**"] };
    const slugs = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];
    agents.detail("core", Object.fromEntries(slugs.map((s) => [s, { title: `Task ${s}`, dependsOn: deps[s], files: owned[s] ?? [`${s}.txt`] }])));
    const log = join(agents.dir, "times.log");
    for (const s of slugs) {
      const file = owned[s] ? `shared/${s}.txt` : `${s}.txt`;
      // what each needs of the tasks it follows is in its base: the initiative branch as merged so far
      const needs = (deps[s] ?? []).map((d) => `test -f ${owned[d] ? `shared/${d}.txt` : `${d}.txt`}`).join("\n");
      agents.script(
        "execute",
        s,
        [needs, `echo "${s} start $(date +%s%N) $PWD" >> ${log}`, "sleep 1.5", `mkdir -p shared && echo ${s} > ${file}`, `git add ${file}`, `git commit -q -m "task ${s}"`, `echo "${s} end $(date +%s%N)" >> ${log}`].join("\n"),
      );
    }
    await dispatch("shop", 6);
    await completed("shop", 90_000);

    const all = await tasks();
    expect(all.map((t) => t.status)).toEqual(slugs.map(() => "completed"));
    // each host ran some, each task's placement said why
    const where = new Map(all.map((t) => [t.slug, t.host!]));
    expect(new Set(where.values())).toEqual(new Set(["local", "east", "west"]));
    for (const t of all) expect(t.placement).toMatch(new RegExp(`^${t.host}: \\d of 2 slots free, has generic`));
    // a remote task ran in a worktree of its host's repository, and its branch came back here
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => l.split(" "));
    const ranIn = new Map(lines.filter((l) => l[1] === "start").map((l) => [l[0]!, l[3]!]));
    for (const t of all) {
      const dir = t.host === "local" ? local.dir : hosts.find((h) => h.name === t.host)!.sb.dir;
      expect(ranIn.get(t.slug)!.startsWith(`${dir}/.troupe/worktrees/`)).toBe(true);
      if (t.host !== "local") expect(local.git("rev-parse", "--verify", "--quiet", `refs/troupe-hosts/${t.host}/${t.branch}`).trim()).toMatch(/^[0-9a-f]{40}$/);
    }
    // merged once each, a task after those it depends on
    const order = merges().map((m) => /^Merge task core\/(t\d)/.exec(m)![1]!);
    expect([...order].sort()).toEqual(slugs);
    for (const [s, ds] of Object.entries(deps)) for (const d of ds) expect(order.indexOf(d)).toBeLessThan(order.indexOf(s));
    for (const s of slugs) expect(local.git("show", `troupe-initiative/shop:${owned[s] ? `shared/${s}.txt` : `${s}.txt`}`).trim()).toBe(s);
    // the two tasks owning shared/** never ran at once
    const span = (s: string) => [Number(lines.find((l) => l[0] === s && l[1] === "start")![2]), Number(lines.find((l) => l[0] === s && l[1] === "end")![2])] as const;
    const [a0, a1] = span("t2");
    const [b0, b1] = span("t3");
    expect(a1 < b0 || b1 < a0).toBe(true);
    // the work did run side by side: more than the 2 slots of any one host at once
    const starts = slugs.map(span);
    const most = Math.max(...starts.map(([s0]) => starts.filter(([x0, x1]) => x0 <= s0 && s0 < x1).length));
    expect(most).toBeGreaterThan(2);
  }, 240_000);

  /** `sh` lines that wait (up to 2 minutes) for a file. */
  const awaitFile = (path: string) => `i=0; while [ ! -f ${path} ]; do i=$((i+1)); [ $i -lt 2400 ] || exit 1; sleep 0.05; done`;
  const commits = (slug: string, before = "") => agents.script("execute", slug, `${before}\necho "${slug} on $PWD" > ${slug}.txt\ngit add ${slug}.txt\ngit commit -q -m "task ${slug}"`);

  test("a host frozen mid-task (its sshd's sessions and its daemon stopped) loses its task after its grace: placed again, merged once; thawed, its stale run's end is recorded, never merged", async () => {
    await initiative("frost");
    const east = hosts[0]!;
    const thaw = join(agents.dir, "thaw-c");
    agents.detail("core", { a: { title: "Task a", files: ["a.txt"] }, b: { title: "Task b", files: ["b.txt"] }, c: { title: "Task c", files: ["c.txt"] } });
    commits("a", "sleep 2");
    commits("b", "sleep 2");
    // on east, c holds until the test lets it go: it is mid-task when its host freezes; elsewhere it does not wait
    commits("c", `case "$PWD" in ${east.sb.dir}/*) ${awaitFile(thaw)} ;; esac`);
    await dispatch("frost", 3);
    let seen = "";
    const c = await waitFor(
      "c under way on east",
      async () => {
        const all = await tasks("frost");
        seen = JSON.stringify(all.map((k) => [k.slug, k.status, k.host, k.placement, k.waiting]));
        return all.find((k) => k.slug === "c" && k.status === "in_progress" && k.host === "east" && k.branch);
      },
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${seen}\n    ${tail(local.dir)}`);
    });
    await waitFor("c's agent to run on east", async () => (await east.sb.json<Agent[]>(["ls", "--json"])).some((a) => a.branch === c.branch && a.status === "running"), 20_000);
    // troupe hosts says where it runs
    const pool = await local.json<PoolHost[]>(["hosts", "--json"], { env });
    expect(pool.find((h) => h.name === "east")!.tasks).toEqual(["frost/c"]);
    expect((await local.run(["hosts"], { env })).stdout).toMatch(/^east +\S+ +1\/2 +frost\/c +generic /m);
    const daemon = (await east.sb.daemonPid())!;
    process.kill(daemon, "SIGSTOP");
    expect(east.sshd.freezeSessions(true)).toBeGreaterThan(0);
    let again;
    try {
      again = await waitFor("c placed again and merged", async () => (await tasks("frost")).find((k) => k.slug === "c" && k.status === "completed"), 90_000);
    } finally {
      process.kill(daemon, "SIGCONT");
      east.sshd.freezeSessions(false);
    }
    expect(again.host).not.toBe("east");
    expect(again.lostRuns).toMatchObject([{ host: "east", branch: c.branch, outcome: null }]);
    expect(again.lostRuns[0]!.agent).toStartWith("c-");
    // thawed: the stale run ends there, its end recorded on the task, never merged
    writeFileSync(thaw, "");
    const ended = await waitFor("the lost run's end recorded", async () => (await tasks("frost")).find((k) => k.slug === "c" && k.lostRuns[0]?.outcome), 60_000);
    expect(ended.lostRuns[0]!.outcome).toBe("done: execute c done");
    await completed("frost", 30_000);
    expect(merges("frost").filter((m) => m.startsWith("Merge task core/c:"))).toHaveLength(1);
    expect(local.git("show", "troupe-initiative/frost:c.txt")).not.toContain(east.sb.dir);
    expect(local.git("for-each-ref", "--format=%(refname)", `refs/troupe-hosts/east/${c.branch}`).trim()).toBe("");
  }, 240_000);

  test("kill -9 of this machine's daemon again and again while tasks are placed, pushed, run, fetched and merged across the pool: each runs once and merges once", async () => {
    await initiative("crash");
    const slugs = ["k1", "k2", "k3", "k4", "k5", "k6"];
    agents.detail("core", Object.fromEntries(slugs.map((k) => [k, { title: `Task ${k}`, files: [`${k}.txt`] }])));
    for (const k of slugs) commits(k, "sleep 1");
    await dispatch("crash", 6);
    for (const wait of [300, 900, 700, 1_200, 800]) {
      await Bun.sleep(wait);
      if ((await local.daemonPid()) !== null) await local.killDaemon();
      // the next command starts it again, with the ssh it needs
      expect((await local.run(["ls"], { env })).code).toBe(0);
    }
    await completed("crash", 120_000);
    const all = await tasks("crash");
    expect(new Set(all.map((t) => t.host)).size).toBeGreaterThan(1);
    expect(merges("crash").map((m) => m.split(":")[0]).sort()).toEqual(slugs.map((k) => `Merge task core/${k}`));
    // each ran once: the scripted agents' own record, and one agent per remote task on its host
    expect(agents.runs().filter((r) => / k\d$/.test(r)).sort()).toEqual(slugs.map((k) => `execute ${k}`));
    for (const h of hosts) {
      const there = (await h.sb.json<Agent[]>(["ls", "--json"])).filter((a) => /^k\d-/.test(a.name));
      expect(there.map((a) => a.branch).sort()).toEqual(all.filter((t) => t.host === h.name).map((t) => t.branch).sort());
    }
  }, 240_000);

  test("kill -9 of this machine's daemon during a task's fetch and during its merge: each task runs once and merges once", async () => {
    await initiative("cut");
    agents.detail("core", { x1: { title: "Task x1", files: ["x1.txt"] }, x2: { title: "Task x2", files: ["x2.txt"] } });
    for (const k of ["x1", "x2"]) commits(k, "sleep 1");
    // the next fetch (its ssh: see beforeAll) and the next merge (its pre-merge-commit hook) each hold 3 s once, saying so
    const hooks = join(local.dir, local.git("rev-parse", "--git-common-dir").trim(), "hooks");
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, "pre-merge-commit"), `#!/bin/sh\nmv "${marks}/slow-merge" "${marks}/merging" 2>/dev/null && sleep 3\nexit 0\n`, { mode: 0o755 });
    writeFileSync(join(marks, "slow-fetch"), "");
    writeFileSync(join(marks, "slow-merge"), "");
    try {
      await waitFor("the phase", async () => (await tree("cut")).phases[0]?.status === "approved", 10_000);
      expect((await local.run(["pin", (await tree("cut")).phases[0]!.id, "east"], { env })).code).toBe(0);
      await local.json(["dispatch", "cut", "--concurrency", "2", "--command", agents.command, "--json"], { env: { ...env, ...DEE } });
      for (const step of ["fetching", "merging"]) {
        await waitFor(`a ${step.slice(0, -3)}`, () => existsSync(join(marks, step)), 60_000);
        await local.killDaemon();
        expect((await local.run(["ls"], { env })).code).toBe(0);
      }
      await completed("cut", 90_000);
    } finally {
      rmSync(join(hooks, "pre-merge-commit"), { force: true });
    }
    const all = await tasks("cut");
    expect(all.map((t) => t.host)).toEqual(["east", "east"]);
    expect(merges("cut").map((m) => m.split(":")[0]).sort()).toEqual(["Merge task core/x1", "Merge task core/x2"]);
    expect(agents.runs().filter((r) => / x\d$/.test(r)).sort()).toEqual(["execute x1", "execute x2"]);
    const there = (await hosts[0]!.sb.json<Agent[]>(["ls", "--json"])).filter((a) => /^x\d-/.test(a.name));
    expect(there.map((a) => a.branch).sort()).toEqual(all.map((t) => t.branch).sort());
  }, 240_000);

  test("troupe pin holds a phase's tasks to a host, a task's own pin over it; none unpins; a host outside the pool or an initiative is one line", async () => {
    await initiative("pins");
    agents.detail("core", { p1: { title: "Task p1", files: ["p1.txt"] }, p2: { title: "Task p2", files: ["p2.txt"] }, p3: { title: "Task p3", files: ["p3.txt"] } });
    // p1 and p2 take west's two slots long enough for p3 to be pinned elsewhere while it waits for one
    for (const k of ["p1", "p2", "p3"]) commits(k, k === "p3" ? "" : "sleep 3");
    await waitFor("the phase", async () => (await tree("pins")).phases[0]?.status === "approved", 10_000);
    const pin = (ref: string, host: string) => local.run(["pin", ref, host], { env });
    const phase = (await tree("pins")).phases[0]!;
    const bad = await pin(phase.id, "north");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toBe("troupe: north is not a host of the pool: local, east, west ('troupe remote set NAME --slots N' adds one)");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect((await pin("pins", "west")).stderr).toContain("pins is an initiative; pin one of its phases or tasks");
    expect((await pin(phase.id, "west")).stdout).toBe("phase core: its tasks run on west only\n");
    await dispatch("pins", 3);
    // detailed after the pin: its tasks go to west, two at once (its slots), one of them pinned elsewhere on its own
    await waitFor("the tasks", async () => (await tasks("pins")).length === 3, 30_000);
    expect((await pin("pins/p3", "local")).stdout).toBe("task p3: it runs on local only\n");
    const done = await completed("pins", 60_000);
    const all = done.phases[0]!.tasks;
    expect(done.phases[0]!.pin).toBe("west");
    expect(all.map((t) => [t.slug, t.host])).toEqual([["p1", "west"], ["p2", "west"], ["p3", "local"]]);
    expect(all[0]!.placement).toMatch(/^pinned to west \(\d of 2 slots free\)$/);
    expect((await pin(phase.id, "none")).stdout).toBe("phase core: unpinned; dispatch places it\n");
    expect((await tree("pins")).phases[0]!.pin).toBeNull();
  }, 120_000);
});
