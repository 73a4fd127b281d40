/**
 * The workspace's pool of hosts (docs/remotes.md, "Hosts as a pool"): remotes given slots, asked
 * by the workspace's daemon over links of its own through a real OpenSSH server on 127.0.0.1
 * (tests/support/sshd.ts); the host a sandbox of its own whose socket sshd's sessions are given.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, Sshd, processesUnder } from "../support/sshd.ts";
import type { PoolHost } from "../../src/protocol/host.ts";

let sshd: Sshd;
let local: Sandbox;
let host: Sandbox;
let env: Record<string, string>;

describe.skipIf(!HAVE_SSHD)("the pool of hosts", () => {
  beforeAll(async () => {
    local = new Sandbox();
    host = new Sandbox();
    const home = join(host.runtime, "home");
    mkdirSync(home);
    sshd = await Sshd.start({ HOME: home, TROUPE_SOCKET: host.socket, XDG_STATE_HOME: host.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: host.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
    env = { TROUPE_SSH_COMMAND: sshd.sshCommand, TROUPE_REMOTE_TIMEOUT: "5" };
    for (const args of [
      ["box", `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", BIN, "--slots", "2"],
      // nothing listens on port 1: ssh fails at once
      ["gone", "127.0.0.1:1", "--path", "/srv/none", "--slots", "1"],
      // a remote without slots is not a host of the pool
      ["plain", `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", BIN],
    ]) {
      const r = await local.run(["remote", "add", ...args], { env });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
    }
  });

  afterAll(async () => {
    await local?.close();
    await host?.close();
    sshd?.close();
  });

  const hosts = () => local.json<PoolHost[]>(["hosts", "--json"], { env });
  /** The daemon's ssh clients to the test's server (run by `sh -c`, which names the config too). */
  const linksOf = async () =>
    processesUnder((await local.daemonPid())!, `${sshd.dir}/ssh_config`).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("ssh\0");
      } catch {
        return false;
      }
    }).length;

  test("troupe hosts: this machine and each remote with slots, asked over ssh: agents running against slots, providers, accounts; a dead one says why", async () => {
    await host.json(["spawn", "--no-worktree", "--name", "far", "--command", "sleep 600", "--json"]);
    const added = await host.run(["account", "add", "--provider", "claude", "--token", "sk-ant-test", "--name", "work"]);
    expect(added.code).toBe(0);

    const [me, box, gone, ...rest] = await hosts();
    expect(rest).toEqual([]);
    expect(me).toMatchObject({ name: "local", address: local.dir, slots: 4, reachable: true, error: null, running: 0 });
    expect(me!.providers).toContain("generic");
    expect(box).toMatchObject({ name: "box", address: `127.0.0.1:${sshd.port}:${host.dir}`, slots: 2, reachable: true, error: null, running: 1, platform: `${process.platform}-${process.arch}` });
    expect(box!.providers).toContain("generic");
    expect(box!.accounts).toEqual([{ name: "work", provider: "claude", status: "available", runsOutAt: null }]);
    // the secret never leaves the host
    expect(JSON.stringify(box)).not.toContain("sk-ant-test");
    expect(gone).toMatchObject({ name: "gone", slots: 1, reachable: false, running: null, providers: [], accounts: [] });
    expect(gone!.error).toMatch(/gone/);

    // the daemon keeps its link to box open between looks: a second look opens no second one
    expect(await linksOf()).toBe(1);
    expect((await hosts())[1]).toMatchObject({ name: "box", reachable: true, running: 1 });
    expect(await linksOf()).toBe(1);

    const text = await local.run(["hosts"], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^HOST +WHERE +SLOTS +TASKS +PROVIDERS +ACCOUNTS +STATE/);
    // its agent was spawned by hand, not placed by dispatch: no task there
    expect(text.stdout).toMatch(/\nbox +127\.0\.0\.1:\d+:\S+ +1\/2 +- +\S*generic\S* +work +reachable\n/);
    expect(text.stdout).toMatch(/\ngone +.* 0?\?\/1 +- +- +.*gone/);
  }, 90_000);

  test("troupe doctor checks each host of the pool as the daemon will reach it: without this login's ssh-agent", async () => {
    const doctor = async (e: Record<string, string>) => {
      const r = await local.run(["doctor", "--json"], { env: e });
      return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks.filter((c) => c.name.startsWith("host ")) };
    };
    // the test's ssh config names a key file: fine after a logout too
    let d = await doctor(env);
    expect(d.checks.map((c) => [c.name, c.ok])).toEqual([
      ["host box", true],
      ["host gone", false],
    ]);
    expect(d.checks[0]!.detail).toContain("without this login's ssh-agent");
    expect(d.code).toBe(1);

    // a config whose only credential is an ssh-agent of this login: reachable now, not after it
    const sock = join(sshd.dir, "agent.sock");
    const agent = Bun.spawn(["ssh-agent", "-D", "-a", sock], { stdout: "ignore", stderr: "ignore" });
    try {
      await waitFor("ssh-agent", () => Bun.spawnSync(["ssh-add", "-l"], { env: { SSH_AUTH_SOCK: sock } }).exitCode !== 2);
      expect(Bun.spawnSync(["ssh-add", join(sshd.dir, "user_key")], { env: { SSH_AUTH_SOCK: sock } }).exitCode).toBe(0);
      const config = join(sshd.dir, "agent_config");
      writeFileSync(config, readFileSync(join(sshd.dir, "ssh_config"), "utf8").replace(/IdentityFile .*\n/, "IdentityFile /nonexistent\n").replace("IdentitiesOnly yes", "IdentitiesOnly no"));
      const viaAgent = { ...env, TROUPE_SSH_COMMAND: `ssh -F ${config}`, SSH_AUTH_SOCK: sock };
      const ls = await local.json<{ name: string; reachable: boolean }[]>(["remote", "ls", "--json"], { env: viaAgent });
      expect(ls.find((r) => r.name === "box")!.reachable).toBe(true);
      d = await doctor(viaAgent);
      expect(d.checks[0]).toMatchObject({ name: "host box", ok: false });
      expect(d.checks[0]!.detail).toContain(`only through this login's ssh-agent (SSH_AUTH_SOCK ${sock})`);
    } finally {
      agent.kill();
      await agent.exited;
    }
  }, 90_000);

  test("slots change with remote set and the workspace config; a host whose entry changed is asked anew and keeps what it said last when it fails", async () => {
    writeFileSync(join(local.dir, ".troupe", "config.json"), JSON.stringify({ dispatch: { slots: 3 } }));
    expect((await local.run(["remote", "set", "box", "--slots", "5"], { env })).stdout).toContain("a host of the pool with 5 slots");
    let [me, box] = await hosts();
    expect(me!.slots).toBe(3);
    expect(box).toMatchObject({ name: "box", slots: 5, reachable: true });

    // another folder there: a new link, which that host's troupe refuses; what box had is still shown
    expect((await local.run(["remote", "set", "box", "--path", `${host.dir}-moved`], { env })).code).toBe(0);
    [, box] = await hosts();
    expect(box).toMatchObject({ name: "box", reachable: false, error: `box: no folder ${host.dir}-moved on this host`, running: null });
    expect(box!.accounts.map((a) => a.name)).toEqual(["work"]);
    expect((await local.run(["remote", "set", "box", "--path", host.dir], { env })).code).toBe(0);
    expect((await hosts())[1]).toMatchObject({ name: "box", reachable: true, running: 1 });

    // out of the pool: not listed, and its link ends
    expect((await local.run(["remote", "set", "box", "--slots", "none"], { env })).stdout).not.toContain("pool");
    expect((await hosts()).map((h) => h.name)).toEqual(["local", "gone"]);
    await waitFor("box's link to end", async () => (await linksOf()) === 0);
  }, 90_000);

  test("bad slots and a remote named like this machine are one-line usage errors that change nothing", async () => {
    for (const [args, message] of [
      [["remote", "set", "gone", "--slots", "0"], "troupe: --slots takes a whole number from 1 to 64 or none, not '0'\n"],
      [["remote", "add", "x", "127.0.0.1", "--path", "/p", "--slots", "many"], "troupe: --slots takes a whole number from 1 to 64, not 'many'\n"],
      [["remote", "add", "local", "127.0.0.1", "--path", "/p"], "troupe: 'local' names this machine among the hosts: give the remote another name\n"],
      [["remote", "set", "gone"], "troupe: give what changes: --path PATH, --troupe CMD or --slots N|none\n"],
      [["remote", "set", "nope", "--slots", "2"], "troupe: no remote 'nope' (there are: box, gone, plain)\n"],
    ] as const) {
      const r = await local.run([...args], { env });
      expect(r.stderr).toStartWith(message);
      expect(r.code).not.toBe(0);
    }
    expect((await local.json<{ name: string; slots?: number }[]>(["remote", "ls", "--json"], { env })).map((r) => [r.name, r.slots])).toEqual([
      ["box", undefined],
      ["gone", 1],
      ["plain", undefined],
    ]);
  }, 60_000);
});
