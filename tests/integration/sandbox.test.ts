import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

/**
 * Each agent in a sandbox of its own (src/sandbox/, issue 35), as a hostile agent tries to get out:
 * a generic agent runs a shell script that attempts each forbidden act and prints what happened,
 * against a live daemon, a sibling agent and the person's files. Each act succeeds on a troupe
 * without sandboxes. Needs bubblewrap (`.ci/run` installs it): without it, this fails.
 */

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

beforeAll(() => {
  if (!Bun.which("bwrap")) throw new Error("bubblewrap (bwrap) is not installed: apt install bubblewrap");
});

/** A workspace whose HOME holds an ssh key and whose state folder an account (accounts.json). */
async function workspace(): Promise<Sandbox> {
  const sb = new Sandbox({ sandboxed: true });
  open.push(sb);
  // not the harness's opening of its folder to agents: it holds the person's socket and state here
  rmSync(join(sb.env.XDG_CONFIG_HOME!, "troupe", "config.json"));
  const home = join(sb.runtime, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_test"), "PRIVATE KEY\n");
  sb.env.HOME = home;
  const added = await sb.run(["account", "add", "--provider", "generic", "--env", "SECRET=hunter2", "--name", "acct"]);
  expect(added.code).toBe(0);
  return sb;
}

const agents = (sb: Sandbox) => sb.json<Agent[]>(["ls", "--json"]);
const settled = (sb: Sandbox, name: string) =>
  waitFor(`${name} to end`, async () => {
    const a = (await agents(sb)).find((x) => x.name === name);
    return a && !["running", "starting"].includes(a.status) ? a : undefined;
  }, 30_000);
const logs = async (sb: Sandbox, name: string) => (await sb.run(["logs", name])).stdout;

/** A line per act: `NAME: yes` when the act worked, `NAME: no` when it was refused. */
const act = (name: string, shell: string) => `if ${shell} >/dev/null 2>&1; then echo "${name}: yes"; else echo "${name}: no"; fi`;

describe("a sandboxed agent", () => {
  test("cannot read a sibling's environment or token, signal it, write its worktree, read ~/.ssh or accounts.json, reach another workspace, undo its mounts or pass for the person", async () => {
    const sb = await workspace();
    const other = new Sandbox();
    open.push(other);
    await other.run(["daemon", "start"]);
    const victim = await sb.json<Agent>(["spawn", "--name", "victim", "--command", "sleep 60", "--json"]);
    expect(victim.sandbox).toMatchObject({ sandboxed: true, mode: "auto", network: "all" });
    // its session's wrapper: outside its sandbox, holding its token in its environment
    const vpid = victim.pid!;
    const stateHome = sb.env.XDG_STATE_HOME!;
    const script = [
      act("environ", `grep -q TROUPE_AGENT_TOKEN /proc/${vpid}/environ`),
      // any process's token but its own: a sandbox sees only its own processes in /proc
      `n=0; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q "^TROUPE_AGENT_NAME=victim$" && n=$((n+1)); done; echo "victim processes seen: $n"`,
      act("kill", `kill -0 ${vpid}`),
      act("sibling-worktree", `touch ${victim.worktree}/pwned`),
      act("workspace-checkout", `touch ${sb.dir}/pwned`),
      act("read-ssh", `cat ${sb.env.HOME}/.ssh/id_test`),
      act("write-ssh", `sh -c 'echo evil >> ${sb.env.HOME}/.ssh/id_test'`),
      act("accounts", `cat ${stateHome}/troupe/accounts.json`),
      act("store", `cat ${sb.dir}/.troupe/troupe.db`),
      act("person-socket", `test -e ${sb.socket}`),
      act("other-workspace", `test -e ${other.socket}`),
      act("umount", `umount ${sb.env.HOME}`),
      act("remount", `mount -o remount,rw /`),
      act("capabilities", `grep -q 'CapEff:.*[1-9a-f]' /proc/self/status`),
      act("git-hooks", `touch ${sb.dir}/.git/hooks/post-checkout`),
      act("git-config", `git config --file ${sb.dir}/.git/config core.fsmonitor evil`),
      // no token on the agents' socket: refused, never the person
      act("tokenless", `env -u TROUPE_AGENT_TOKEN troupe account ls`),
      act("worker-unsandboxed", `troupe spawn --sandbox off --command true`),
      act("worker-network", `troupe spawn --network all --command true`),
      // what it may do: write and commit in its own worktree, write /tmp, and signal
      act("own-commit", `sh -c 'echo mine > mine.txt && git add mine.txt && git commit -qm mine'`),
      act("tmp", `touch /tmp/scratch`),
      `troupe signal done --result finished`,
    ].join("\n");
    await sb.json(["spawn", "--name", "mallory", "--network", "none", "--command", script, "--json"]);
    const mallory = await settled(sb, "mallory");
    const out = await logs(sb, "mallory");
    expect(mallory).toMatchObject({ status: "done", result: "finished", sandbox: { sandboxed: true, network: "none" } });
    for (const refused of ["environ", "kill", "sibling-worktree", "workspace-checkout", "read-ssh", "write-ssh", "accounts", "store", "person-socket", "other-workspace", "umount", "remount", "capabilities", "git-hooks", "git-config", "tokenless", "worker-unsandboxed", "worker-network"]) {
      expect(out).toContain(`${refused}: no`);
    }
    expect(out).toContain("victim processes seen: 0");
    expect(out).toContain("own-commit: yes");
    expect(out).toContain("tmp: yes");
    // nothing of the person's changed, and the commit is on mallory's branch
    expect(readFileSync(join(sb.env.HOME!, ".ssh", "id_test"), "utf8")).toBe("PRIVATE KEY\n");
    expect(existsSync(join(victim.worktree!, "pwned"))).toBe(false);
    expect(sb.git("log", "-1", "--format=%s", "troupe/mallory").trim()).toBe("mine");
    expect((await agents(sb)).find((a) => a.name === "victim")?.status).toBe("running");
  }, 60_000);

  test("network none reaches only the daemon; all reaches a server on 127.0.0.1", async () => {
    const sb = await workspace();
    const server: Server = createServer((c) => c.end("hello\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as { port: number }).port;
      const probe = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('tcp: open');process.exit(0)}).on('error',(e)=>{console.log('tcp: '+e.code);process.exit(0)})"`;
      const cmd = `${probe}; troupe signal done --result ok`;
      await sb.json(["spawn", "--name", "closed", "--network", "none", "--command", cmd, "--json"]);
      await sb.json(["spawn", "--name", "opened", "--command", cmd, "--json"]);
      expect(await settled(sb, "closed")).toMatchObject({ status: "done", sandbox: { sandboxed: true, network: "none" } });
      expect(await settled(sb, "opened")).toMatchObject({ status: "done", sandbox: { sandboxed: true, network: "all" } });
      expect(await logs(sb, "closed")).toMatch(/tcp: (ENETUNREACH|ECONNREFUSED)/);
      expect(await logs(sb, "opened")).toContain("tcp: open");
    } finally {
      server.close();
    }
  }, 60_000);

  test("network allow: a named host works through troupe's proxy, one not named is refused at once and said, a direct connection fails", async () => {
    const sb = await workspace();
    const serve = (body: string) => Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(body) });
    const [named, other] = [serve("hello from named"), serve("hello from other")];
    const [namedPort, otherPort] = [named.port!, other.port!];
    try {
      writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "troupe", "config.json"), JSON.stringify({ sandbox: { allowHosts: [`127.0.0.1:${namedPort}`] } }));
      const get = (port: number, extra = "") => `curl -s -m 5 ${extra} http://127.0.0.1:${port}/`;
      const script = [
        `echo "named: $(${get(namedPort)})"`,
        // CONNECT, as an https:// request goes
        `echo "tunnel: $(${get(namedPort, "-p")})"`,
        `t0=$(date +%s%N); echo "other: $(${get(otherPort, "-w ' %{http_code}'")})"; echo "refused in ms: $(( ($(date +%s%N) - t0) / 1000000 ))"`,
        act("direct", get(namedPort, "--noproxy '*' -f")),
        `troupe signal done --result ok`,
      ].join("\n");
      const spawned = await sb.json<Agent>(["spawn", "--name", "fenced", "--network", "allow", "--command", script, "--json"]);
      expect(spawned.sandbox).toMatchObject({ sandboxed: true, network: "allow" });
      expect(await settled(sb, "fenced")).toMatchObject({ status: "done", result: "ok", sandbox: { network: "allow" } });
      const out = await logs(sb, "fenced");
      expect(out).toContain("named: hello from named");
      expect(out).toContain("tunnel: hello from named");
      expect(out).toContain(`other: troupe sandbox: 127.0.0.1:${otherPort} is not in sandbox.allowHosts (network allow)\n 403`);
      expect(Number(/refused in ms: (\d+)/.exec(out)?.[1])).toBeLessThan(3000);
      expect(out).toContain("direct: no");
      // said once in its output, for the person
      expect(out.split(`troupe: sandbox: refused a connection to 127.0.0.1:${otherPort}`).length).toBe(2);
    } finally {
      named.stop(true);
      other.stop(true);
    }
  }, 60_000);

  test("strict refuses to start without a sandbox, in one line; auto runs unsandboxed and says so; off is unsandboxed", async () => {
    const sb = await workspace();
    // a PATH without bubblewrap: only a shell
    const bin = join(sb.runtime, "bin");
    mkdirSync(bin);
    Bun.spawnSync(["ln", "-s", "/bin/sh", join(bin, "sh")]);
    const strict = await sb.run(["spawn", "--name", "s", "--sandbox", "strict", "--command", "troupe signal done"], { env: { PATH: bin } });
    expect(strict).toMatchObject({ code: 1, stdout: "" });
    expect(strict.stderr).toBe("troupe: sandbox mode strict: bubblewrap (bwrap) is not installed: apt install bubblewrap; nothing was started\n");
    expect((await agents(sb)).map((a) => a.name)).toEqual([]);
    await sb.json(["spawn", "--name", "lax", "--command", "troupe signal done --result ran", "--json"], { env: { PATH: bin } });
    expect(await settled(sb, "lax")).toMatchObject({ status: "done", result: "ran", sandbox: { sandboxed: false, mode: "auto", note: "bubblewrap (bwrap) is not installed: apt install bubblewrap" } });
    expect(await logs(sb, "lax")).toContain("troupe: sandbox: this agent runs unsandboxed: bubblewrap (bwrap) is not installed");
    await sb.json(["spawn", "--name", "free", "--sandbox", "off", "--command", `test -e ${sb.socket} && troupe signal done --result person-socket-seen`, "--json"]);
    expect(await settled(sb, "free")).toMatchObject({ status: "done", result: "person-socket-seen", sandbox: { sandboxed: false, mode: "off" } });
  }, 60_000);

  test("a path of allowWrite that does not exist: auto runs sandboxed without it and says so; strict refuses in one line", async () => {
    const sb = await workspace();
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "troupe", "config.json"), JSON.stringify({ sandbox: { allowWrite: ["/nonexistent-troupe-path"] } }));
    await sb.json(["spawn", "--name", "lax", "--command", "troupe signal done", "--json"]);
    expect(await settled(sb, "lax")).toMatchObject({ status: "done", sandbox: { sandboxed: true, mode: "auto" } });
    expect(await logs(sb, "lax")).toContain("troupe: sandbox: sandbox.allowWrite: /nonexistent-troupe-path does not exist: not opened (sandbox mode auto; strict would refuse)");
    const strict = await sb.run(["spawn", "--name", "tight", "--sandbox", "strict", "--command", "troupe signal done"]);
    expect(strict).toMatchObject({ code: 1, stdout: "", stderr: "troupe: sandbox mode strict: sandbox.allowWrite: /nonexistent-troupe-path does not exist; nothing was started\n" });
  }, 60_000);

  test("a workspace config tightens, and loosens only once trusted; the user config wins over it", async () => {
    const sb = await workspace();
    const config = join(sb.dir, ".troupe", "config.json");
    mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
    writeFileSync(config, JSON.stringify({ sandbox: { mode: "off", allowWrite: ["~"] } }));
    await sb.json(["spawn", "--name", "untrusted", "--command", "troupe signal done", "--json"]);
    expect(await settled(sb, "untrusted")).toMatchObject({ status: "done", sandbox: { sandboxed: true, mode: "auto" } });
    const said = await logs(sb, "untrusted");
    expect(said).toContain(`troupe: sandbox: ${config}'s sandbox.mode "off" is not taken: it loosens the sandbox, and the file is not trusted (troupe trust)`);
    expect(said).toContain(`troupe: sandbox: ${config}'s sandbox.allowWrite (~) is not taken`);
    expect((await sb.run(["trust"])).code).toBe(0);
    await sb.json(["spawn", "--name", "trusted", "--command", "troupe signal done", "--json"]);
    expect(await settled(sb, "trusted")).toMatchObject({ status: "done", sandbox: { sandboxed: false, mode: "off" } });
    // tightening needs no trust; the user config (over the workspace's) gives the network
    writeFileSync(config, JSON.stringify({ sandbox: { mode: "strict", network: "none" } }));
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "troupe"), { recursive: true });
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "troupe", "config.json"), JSON.stringify({ sandbox: { network: "all" } }));
    await sb.json(["spawn", "--name", "tight", "--command", "troupe signal done", "--json"]);
    expect(await settled(sb, "tight")).toMatchObject({ status: "done", sandbox: { sandboxed: true, mode: "strict", network: "all" } });
  }, 60_000);

  test("a profile's sandbox: over the configs and under the flags; a repository's tightens, and loosens once trusted; a resume keeps it", async () => {
    const sb = await workspace();
    const userProfiles = join(sb.env.XDG_CONFIG_HOME!, "troupe", "profiles");
    const repoProfiles = join(sb.dir, ".troupe", "profiles");
    mkdirSync(userProfiles, { recursive: true });
    mkdirSync(repoProfiles, { recursive: true });
    writeFileSync(join(userProfiles, "closed.md"), "---\nprovider: generic\nsandbox:\n  network: none\n---\nYou need no network.\n");
    const loose = join(repoProfiles, "loose.md");
    writeFileSync(loose, "---\nprovider: generic\nsandbox:\n  mode: \"off\"\n---\nRun free.\n");
    const spawn = async (name: string, profile: string, extra: string[] = []) => {
      await sb.json(["spawn", "--name", name, "--profile", profile, ...extra, "--command", "troupe signal done", "--json"]);
      return settled(sb, name);
    };
    expect(await spawn("closed", "closed")).toMatchObject({ status: "done", sandbox: { sandboxed: true, network: "none" } });
    expect(await spawn("opened", "closed", ["--network", "all"])).toMatchObject({ status: "done", sandbox: { sandboxed: true, network: "all" } });
    expect(await spawn("untrusted", "loose")).toMatchObject({ status: "done", sandbox: { sandboxed: true, mode: "auto" } });
    expect(await logs(sb, "untrusted")).toContain(`troupe: sandbox: profile loose's sandbox.mode "off" is not taken: it loosens the sandbox, and the file is not trusted (troupe trust)`);
    expect((await sb.run(["trust", loose])).code).toBe(0);
    expect(await spawn("trusted", "loose")).toMatchObject({ status: "done", sandbox: { sandboxed: false, mode: "off" } });
    // the next session keeps the profile's sandbox, as its role keeps its instructions
    writeFileSync(join(userProfiles, "closed.md"), "---\nprovider: generic\n---\nChanged.\n");
    expect((await sb.run(["resume", "closed", "--message", "again"])).code).toBe(0);
    await waitFor("closed's second session", async () => ((await agents(sb)).find((a) => a.name === "closed")?.session === 2 ? true : undefined));
    expect(await settled(sb, "closed")).toMatchObject({ status: "done", session: 2, sandbox: { sandboxed: true, network: "none" } });
  }, 60_000);

  test("kill -9 of the daemon while it streams: it waits for the next daemon, nothing is lost, and it ends done", async () => {
    const sb = await workspace();
    const script = "for i in 1 2 3; do echo line $i; done; while [ ! -f go ]; do sleep 0.05; done; echo after; troupe signal done --result survived";
    const a = await sb.json<Agent>(["spawn", "--name", "steady", "--command", script, "--json"]);
    await waitFor("its first lines", async () => (await logs(sb, "steady")).includes("line 3"));
    await sb.killDaemon();
    writeFileSync(join(a.worktree!, "go"), "");
    // its signal waits on the agents' socket; the person's next command (ls, below) starts a daemon, which it reaches
    await waitFor("it to wait for the daemon", () => readFileSync(join(sb.dir, ".troupe", "logs", "steady", "1.err"), "utf8").includes("waiting for it to come back"));
    expect(await settled(sb, "steady")).toMatchObject({ status: "done", result: "survived", sandbox: { sandboxed: true } });
    const out = await logs(sb, "steady");
    for (const l of ["line 1", "line 2", "line 3", "after", "waiting for it to come back"]) expect(out).toContain(l);
  }, 60_000);
});
