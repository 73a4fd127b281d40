/**
 * Dispatch across a pool of three hosts (docs/remotes.md, "Hosts as a pool"): this workspace and
 * two remotes, each a sandbox of its own (its repository, HOME, state and daemon) behind a real
 * OpenSSH server on 127.0.0.1, 2 slots each. The initiative branch goes to a host by git push over
 * that ssh, the task runs under the host's daemon in its own worktree, its branch comes back by git
 * fetch, and the ordered merge happens here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, Sshd } from "../support/sshd.ts";
import { ScriptedAgents } from "../support/dispatch-agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PhaseTree } from "../../src/protocol/work.ts";

const DEE = { GIT_AUTHOR_NAME: "Dee Spatcher", GIT_AUTHOR_EMAIL: "dee@example.invalid", GIT_COMMITTER_NAME: "Dee Spatcher", GIT_COMMITTER_EMAIL: "dee@example.invalid" };

let local: Sandbox;
const hosts: { name: string; sb: Sandbox; sshd: Sshd }[] = [];
let env: Record<string, string>;
let agents: ScriptedAgents;

/** A host: its own sandbox (agents unsandboxed: they run the test's scripts, kept under this machine's folder) behind its own sshd. */
async function host(name: string): Promise<{ name: string; sb: Sandbox; sshd: Sshd }> {
  const sb = new Sandbox({ sandboxed: false });
  const home = join(sb.runtime, "home");
  mkdirSync(home);
  const sshd = await Sshd.start({ HOME: home, TROUPE_SOCKET: sb.socket, XDG_STATE_HOME: sb.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
  return { name, sb, sshd };
}

const tree = () => local.json<PhaseTree>(["phases", "shop", "--json"], { env });
const tasks = async () => (await tree()).phases.flatMap((p) => p.tasks);
/** The initiative branch's merge commits, oldest first: their subjects. */
const merges = () => local.git("log", "--first-parent", "--merges", "--reverse", "--format=%s", "troupe-initiative/shop").trim().split("\n").filter(Boolean);

describe.skipIf(!HAVE_SSHD)("dispatch across a pool of hosts", () => {
  beforeAll(async () => {
    local = new Sandbox({ sandboxed: false });
    hosts.push(await host("east"), await host("west"));
    // one ssh config reaches both servers: the first's key is let in by the second, whose host key the first's known_hosts holds
    const [a, b] = hosts.map((h) => h.sshd);
    appendFileSync(join(b!.dir, "authorized_keys"), readFileSync(join(a!.dir, "user_key.pub")));
    const bKey = readFileSync(join(b!.dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
    appendFileSync(join(a!.dir, "known_hosts"), `[127.0.0.1]:${b!.port} ${bKey}\n`);
    env = { TROUPE_SSH_COMMAND: a!.sshCommand, TROUPE_REMOTE_TIMEOUT: "5" };
    for (const h of hosts) {
      const r = await local.run(["remote", "add", h.name, `127.0.0.1:${h.sshd.port}`, "--path", h.sb.dir, "--troupe", BIN, "--slots", "2"], { env });
      expect(r.stderr).toBe("");
    }
    mkdirSync(join(local.dir, ".troupe"), { recursive: true });
    writeFileSync(join(local.dir, ".troupe", "config.json"), JSON.stringify({ dispatch: { slots: 2 } }));
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
    await local.json(["initiative", "new", "Shop", "--goal", "# Shop\n\nA shop.", "--json"], { env });
    agents.script("plan", "plan", `mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: Core\ndependsOn: []\n---\nCore.\n' > .troupe/output/phases/core.md`);
    await local.json<Agent>(["plan", "shop", "--command", agents.command, "--json"], { env });
    await waitFor("the plan", async () => (await tree()).phases.length === 1, 30_000);
    await local.json(["approve", "--all", "shop", "--json"], { env });
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
    await local.json(["dispatch", "shop", "--concurrency", "6", "--command", agents.command, "--json"], { env: { ...env, ...DEE } });
    let seen = "";
    try {
      await waitFor(
        "the initiative to complete",
        async () => {
          const t = await tree();
          const all = t.phases.flatMap((p) => p.tasks);
          seen = all.map((k) => `${k.slug}:${k.status}${k.host ? `@${k.host}` : ""}${k.waiting ? ` (${k.waiting})` : ""}${k.reason ? ` [${k.reason}]` : ""}`).join(" ");
          const stuck = all.find((k) => k.status === "failed" || k.status === "blocked");
          if (stuck) throw new Error(`task ${stuck.slug} is ${stuck.status}: ${stuck.reason}`);
          return t.initiative.status === "completed" ? t : undefined;
        },
        40_000,
      );
    } catch (err) {
      const tail = (dir: string) => readFileSync(join(dir, ".troupe", "daemon.log"), "utf8").split("\n").slice(-30).join("\n    ");
      const there = await Promise.all(hosts.map(async (h) => `${h.name}: ${(await h.sb.json<Agent[]>(["ls", "--json"]).catch(() => [])).map((a) => `${a.name}:${a.status}${a.error ? ` (${a.error})` : ""}`).join(" ")}\n    ${tail(h.sb.dir)}`));
      throw new Error(`${(err as Error).message}\n  tasks: ${seen}\n  daemon log:\n    ${tail(local.dir)}\n  hosts:\n  ${there.join("\n  ")}`);
    }

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
});
