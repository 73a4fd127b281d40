/**
 * Remotes over a real OpenSSH server (tests/support/sshd.ts) on 127.0.0.1: the "host" is this
 * machine as another login, its workspace a sandbox whose socket sshd's sessions are given
 * (SetEnv), the link `ssh -F <the test's config> ... troupe proxy` run by the compiled binary.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { agentSocketFor } from "../../src/workspace.ts";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, Sshd, processesUnder } from "../support/sshd.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";
import { TroupeClient } from "../../src/client/client.ts";
import { remoteTransport } from "../../src/client/remote.ts";

type Listed = Agent & { remote: string | null; workspace: string };

let sshd: Sshd;
let local: Sandbox;
let host: Sandbox;
let env: Record<string, string>;
let hostHome: string;

describe.skipIf(!HAVE_SSHD)("remotes over ssh", () => {
  beforeAll(async () => {
    local = new Sandbox();
    host = new Sandbox();
    // the host's sessions reach the host sandbox's daemon and keep its state and config apart
    // and a login folder of the test's own: `troupe remote install` writes ~/.local/bin/troupe there
    hostHome = join(host.runtime, "home");
    mkdirSync(hostHome);
    sshd = await Sshd.start({ HOME: hostHome, TROUPE_SOCKET: host.socket, XDG_STATE_HOME: host.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: host.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
    env = { TROUPE_SSH_COMMAND: sshd.sshCommand, TROUPE_REMOTE_TIMEOUT: "20" };
    const add = await local.run(["remote", "add", "box", `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", BIN], { env });
    expect(add.stderr).toBe("");
    expect(add.code).toBe(0);
  });

  afterAll(async () => {
    await local?.close();
    await host?.close();
    sshd?.close();
  });

  test("remote ls: reachable, the host's troupe and API, its agents; a missing troupe is one clear state", async () => {
    await host.json(["spawn", "--no-worktree", "--name", "far", "--command", "sleep 600", "--json"]);
    const addMissing = await local.run(["remote", "add", "bare", `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", "/nonexistent/troupe"], { env });
    expect(addMissing.code).toBe(0);
    try {
      const states = await local.json<{ name: string; reachable: boolean; api: number | null; agents: number | null; error: string | null }[]>(["remote", "ls", "--json"], { env });
      const box = states.find((s) => s.name === "box")!;
      expect(box).toMatchObject({ reachable: true, api: 1, agents: 1, error: null });
      const bare = states.find((s) => s.name === "bare")!;
      expect(bare.reachable).toBe(false);
      expect(bare.error).toContain("no troupe");
      // a path with no folder on the host: its troupe says so in its greeting
      expect((await local.run(["remote", "add", "nowhere", `127.0.0.1:${sshd.port}`, "--path", `${host.dir}-gone`, "--troupe", BIN], { env })).code).toBe(0);
      const gone = (await local.json<{ name: string; reachable: boolean; error: string | null }[]>(["remote", "ls", "--json"], { env })).find((s) => s.name === "nowhere")!;
      expect(gone.error).toBe(`nowhere: no folder ${host.dir}-gone on this host`);
      await local.run(["remote", "rm", "nowhere"], { env });
      const text = await local.run(["remote", "ls"], { env });
      expect(text.stdout).toMatch(/box .*reachable/);
    } finally {
      expect((await local.run(["remote", "rm", "bare"], { env })).code).toBe(0);
    }
    const after = await local.json<{ name: string }[]>(["remote", "ls", "--json"], { env });
    expect(after.map((s) => s.name)).toEqual(["box"]);
  });

  test("ls --remote: this workspace's agents and the remote's in one list, each with its source", async () => {
    await local.json(["spawn", "--no-worktree", "--name", "near", "--command", "sleep 600", "--json"]);
    await waitFor("far on the host", async () => (await host.json<Agent[]>(["ls", "--json"])).some((a) => a.name === "far"));
    const listed = await local.json<Listed[]>(["ls", "--remote", "box", "--json"], { env });
    const near = listed.find((a) => a.name === "near")!;
    const far = listed.find((a) => a.name === "far")!;
    expect(near).toMatchObject({ remote: null, workspace: local.dir });
    expect(far).toMatchObject({ remote: "box", workspace: host.dir, status: "running" });
    const text = await local.run(["ls", "--remote", "box"], { env });
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    const groupOf = (name: string) => lines.slice(0, lines.findIndex((l) => l.includes(` ${name} `))).filter((l) => l.startsWith("== ")).at(-1);
    expect(groupOf("near")).toBe(`== ${local.dir}`);
    expect(groupOf("far")).toBe(`== box (127.0.0.1:${sshd.port}:${host.dir})`);
    // a single-workspace ls is as it was: no source fields
    const plain = await local.json<Record<string, unknown>[]>(["ls", "--json"], { env });
    expect(plain.map((a) => a.name)).toEqual(["near"]);
    expect("remote" in plain[0]!).toBe(false);
  });

  test("a remote agent's question is answered from here, and the agent gets the answer", async () => {
    await host.json(["spawn", "--no-worktree", "--name", "asker", "--command", `a=$(troupe ask 'ship it?' --user) && troupe signal done --result "got:$a"`, "--json"]);
    // found from here, as the person on the laptop finds it
    const conv = await waitFor("the host agent's question", async () => (await local.json<Conversation[]>(["conversations", "--pending", "--remote", "box", "--json"], { env }))[0]);
    expect(conv).toMatchObject({ fromName: "asker", question: "ship it?" });
    const r = await local.run(["answer", "yes", "--conversation", conv.id, "--remote", "box"], { env });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ conversationId: conv.id, status: "answered" });
    const done = await waitFor("asker done", async () => (await local.json<Listed[]>(["ls", "--remote", "box", "--json"], { env })).find((a) => a.name === "asker" && a.status === "done"));
    expect(done.result).toBe("got:yes");
    await host.json(["spawn", "--no-worktree", "--name", "idler", "--command", "sleep 600", "--json"]);
    const stop = await local.run(["stop", "idler", "--remote", "box"], { env });
    expect(stop.stderr).toBe("");
    expect(stop.code).toBe(0);
    await waitFor("idler stopped on the host", async () => (await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "idler" && a.status === "stopped"));
  }, 60_000);

  test("spawn --remote starts the agent on the host, with the host's environment; logs --remote reads its output", async () => {
    const r = await local.run(["spawn", "--remote", "box", "--no-worktree", "--name", "envy", "--command", 'echo "home=$TROUPE_SOCKET marker=${LAPTOP_ONLY:-unset}"', "--json"], { env: { ...env, LAPTOP_ONLY: "leaked" } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const agent = JSON.parse(r.stdout) as Agent;
    expect(agent.cwd).toBe(host.dir);
    await waitFor("envy ended on the host", async () => (await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "envy" && a.status !== "running"));
    const logs = await local.run(["logs", "envy", "--remote", "box"], { env });
    expect(logs.code).toBe(0);
    // the host's session environment (sshd's SetEnv), not this shell's; in its sandbox, the host daemon's agents' socket
    expect(logs.stdout).toContain(`home=${agentSocketFor(host.socket)} marker=unset`);
  }, 60_000);

  test("remote install copies this troupe to ~/.local/bin on a host without one, and the remote answers", async () => {
    // no --troupe: the host's PATH has none, so ~/.local/bin/troupe is what the link runs
    expect((await local.run(["remote", "add", "fresh", `127.0.0.1:${sshd.port}`, "--path", host.dir], { env })).code).toBe(0);
    try {
      const before = await local.json<{ name: string; error: string | null }[]>(["remote", "ls", "--json"], { env });
      expect(before.find((s) => s.name === "fresh")!.error).toContain("no troupe");
      const r = await local.run(["remote", "install", "fresh"], { env });
      if (statSync(BIN).size < 1_000_000) {
        // a launcher (dist/troupe-deno without deno compile) has no one file to copy: said in one line
        expect(r).toMatchObject({ code: 1, stderr: expect.stringMatching(/^troupe: fresh is linux-\S+; this troupe is not one executable .*\n$/) });
        return;
      }
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("fresh (127.0.0.1:");
      const copied = join(hostHome, ".local", "bin", "troupe");
      expect(existsSync(copied)).toBe(true);
      expect(statSync(copied).size).toBe(statSync(BIN).size);
      const after = await local.json<{ name: string; reachable: boolean; error: string | null }[]>(["remote", "ls", "--json"], { env });
      expect(after.find((s) => s.name === "fresh")).toMatchObject({ reachable: true, error: null });
    } finally {
      await local.run(["remote", "rm", "fresh"], { env });
    }
  }, 60_000);

  test.skipIf(!HAVE_TMUX)("attach --remote: ssh -t runs troupe attach on the host, on this terminal; the agent is back after", async () => {
    const standIn = ['if [ -n "$TROUPE_ATTACHED" ]; then', '  echo "interactive $TROUPE_AGENT_NAME ready"', '  while IFS= read -r line; do [ "$line" = quit ] && exit 0; echo "got: $line"; done', "fi", "troupe signal done --result ok"].join("\n");
    await host.json(["spawn", "--no-worktree", "--name", "ada", "--command", standIn, "--json"]);
    await waitFor("ada done on the host", async () => (await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "ada" && a.status === "done"));
    const term = new Terminal(local);
    try {
      term.type(`TROUPE_SSH_COMMAND='${sshd.sshCommand}' ${BIN} attach ada --remote box`);
      term.keys("Enter");
      await term.waitFor("interactive ada ready", 30_000);
      expect((await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "ada")!.status).toBe("attached");
      term.type("hello there");
      term.keys("Enter");
      await term.waitFor("got: hello there");
      term.type("quit");
      term.keys("Enter");
      await term.waitFor("detached from ada: done");
    } finally {
      term.close();
    }
  }, 60_000);

  test("a host gone silent mid-stream (its sessions frozen): the link's heartbeat notices within seconds, in one line", async () => {
    const transport = remoteTransport("box", { host: "127.0.0.1", port: sshd.port, path: host.dir, troupe: BIN }, { ...process.env, ...env });
    const client = new TroupeClient({ transport });
    const events = await client.openEvents(null);
    let frozen = 0;
    try {
      frozen = sshd.freezeSessions(true);
      expect(frozen).toBeGreaterThan(0);
      const started = Date.now();
      const ended = (async () => {
        for await (const _ of events) void _;
      })();
      await expect(ended).rejects.toThrow(/^the link to box went silent: nothing from 127\.0\.0\.1:\d+:\S+ for 6 s$/);
      // the heartbeat's deadline (6 s, noticed 6–8 s after the last byte), well before ssh's
      // keep-alives (ServerAliveInterval=5 × ServerAliveCountMax=3: 15–20 s), the backstop
      const took = Date.now() - started;
      console.log(`frozen host noticed after ${took} ms`);
      expect(took).toBeLessThan(12_000);
    } finally {
      if (frozen) sshd.freezeSessions(false);
      transport.close();
    }
  }, 60_000);

  test("a client gone silent (its ssh frozen, as a laptop asleep): the host's proxy lets go of the link, where sshd would keep it for hours", async () => {
    const transport = remoteTransport("box", { host: "127.0.0.1", port: sshd.port, path: host.dir, troupe: BIN }, { ...process.env, ...env });
    const events = await new TroupeClient({ transport }).openEvents(null);
    const reading = (async () => {
      for await (const _ of events) void _;
    })();
    reading.catch(() => undefined);
    // the link's first PING (2 s) tells the proxy this client pings
    await Bun.sleep(3_000);
    const [proxy] = processesUnder(sshd.pid!, "proxy --workspace");
    const ssh = processesUnder(process.pid, "ssh -F").filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("ssh"));
    expect(proxy).toBeDefined();
    expect(ssh).toHaveLength(1);
    const started = Date.now();
    process.kill(ssh[0]!, "SIGSTOP");
    try {
      await waitFor("the host's proxy to exit", () => !existsSync(`/proc/${proxy}`) || readFileSync(`/proc/${proxy}/stat`, "utf8").includes(") Z "), 30_000);
      const took = Date.now() - started;
      console.log(`the host's proxy let go of a silent client after ${took} ms`);
      // PROXY_DEADLINE: 15 s without a byte, checked every 5 s
      expect(took).toBeLessThan(25_000);
    } finally {
      process.kill(ssh[0]!, "SIGCONT");
      transport.close();
    }
  }, 60_000);

  test("an unreachable remote: the rest is listed, one stderr line, exit 1, within its connect timeout", async () => {
    // accepts TCP and never speaks: ssh waits for a banner that does not come
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      expect((await local.run(["remote", "add", "mute", `127.0.0.1:${port}`, "--path", "/srv/x"], { env })).code).toBe(0);
      const started = Date.now();
      const r = await local.run(["ls", "--remote", "mute", "--remote", "box", "--json"], { env: { ...env, TROUPE_REMOTE_TIMEOUT: "3" } });
      const took = Date.now() - started;
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^troupe: mute \(127\.0\.0\.1:\d+:\/srv\/x\): /);
      expect((JSON.parse(r.stdout) as Listed[]).some((a) => a.remote === "box")).toBe(true);
      expect(took).toBeLessThan(12_000);
      const one = await local.run(["stop", "x", "--remote", "mute"], { env: { ...env, TROUPE_REMOTE_TIMEOUT: "3" } });
      expect(one.code).toBe(1);
      expect(one.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      silent.close();
      await local.run(["remote", "rm", "mute"], { env });
    }
  }, 60_000);
});
