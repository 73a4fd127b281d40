/**
 * The dashboard over this workspace and a remote one (`troupe --remote box`), as a person on a
 * laptop uses it: the compiled binary in tmux, the remote a real OpenSSH server on 127.0.0.1
 * (tests/support/sshd.ts) whose sessions reach the host sandbox's daemon, the link `ssh -F <the
 * test's config> ... troupe proxy`. A question on the host answered from here, a stop, and the
 * link's ssh killed while a host agent streams and ends: shown down, back, every line once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_SSHD, remoteHost, type Sshd } from "../support/sshd.ts";
import { HAVE_TMUX, Terminal, listLines } from "../support/terminal.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sshd: Sshd;
let local: Sandbox;
let host: Sandbox;

const hostAgent = async (name: string) => (await host.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

/** The processes of this test's link: the ssh client (and the shell TROUPE_SSH_COMMAND runs it in). */
function linkPids(): number[] {
  const r = Bun.spawnSync(["pgrep", "-f", `${sshd.sshCommand}.*proxy --workspace`]);
  return r.stdout.toString().split("\n").filter(Boolean).map(Number);
}

/** Moves the selection onto the agent named `name`, by as many j or k as the agents between them. */
async function select(term: Terminal, name: string): Promise<void> {
  const agents = listLines(term.screen()).filter((l) => !/^ (──|! needs you)/.test(l));
  const at = agents.findIndex((l) => l.startsWith("›"));
  const to = agents.findIndex((l) => new RegExp(`^.{5}\\S*\\s*${name}\\s`).test(l));
  if (at === -1 || to === -1) throw new Error(`no selection or no ${name} in the list:\n${agents.join("\n")}`);
  for (let i = 0; i < Math.abs(to - at); i++) term.keys(to > at ? "j" : "k");
  await term.waitFor(new RegExp(`› \\S+\\s+(! )?${name}\\s`));
}

describe.skipIf(!HAVE_SSHD || !HAVE_TMUX)("the dashboard over a remote", () => {
  beforeAll(async () => {
    local = new Sandbox();
    ({ host, sshd } = await remoteHost(local));
  });

  afterAll(async () => {
    await local?.close();
    await host?.close();
    sshd?.close();
  });

  test("one list over here and the host: a header each; the host's question answered and its agent stopped from here; the link killed and back with every line once", async () => {
    await local.json(["spawn", "--no-worktree", "--name", "near", "--command", "sleep 600", "--json"]);
    await host.json(["spawn", "--no-worktree", "--name", "far", "--command", "sleep 600", "--json"]);
    await host.json(["spawn", "--no-worktree", "--name", "asker", "--command", `a=$(troupe ask 'ship it?' --user) && troupe signal done --result "got:$a"`, "--json"]);
    await waitFor("asker's question", async () => (await host.json<unknown[]>(["conversations", "--pending", "--json"])).length > 0);
    const term = new Terminal(local, 160, 30);
    try {
      term.type(`env TROUPE_SSH_COMMAND='${sshd.sshCommand}' ${BIN} --remote box`);
      term.keys("Enter");
      const screen = await term.waitFor(/near\s+running[\s\S]*far\s+running/, 30_000);
      const lines = listLines(screen);
      expect(lines[0]).toContain("! needs you");
      expect(lines[1]).toMatch(/! asker\s+running.*box · /);
      expect(lines[2]).toContain(`── ${local.dir}`);
      expect(lines[3]).toMatch(/near\s+running/);
      expect(lines[4]).toContain(`── box · 127.0.0.1:${sshd.port}:${host.dir}`);
      expect(lines[5]).toMatch(/far\s+running/);
      expect(screen).toMatch(/3 agents · 3 running · 1 needs you/);

      // the host's question, answered here: the host's agent gets the answer
      await term.waitFor(/› \S+\s+! asker/);
      term.keys("a");
      await term.waitFor("ship it?");
      term.type("yes");
      await term.waitFor("> yes");
      term.keys("Enter");
      const done = await waitFor("asker done on the host", async () => {
        const a = await hostAgent("asker");
        return a?.status === "done" && a;
      });
      expect(done.result).toBe("got:yes");

      // down to far (past the host's header), s stops it on the host
      await term.waitFor(/asker\s+done/);
      await select(term, "far");
      term.keys("s");
      await term.waitFor("Stop far?");
      term.keys("y");
      await waitFor("far stopped on the host", async () => (await hostAgent("far"))?.status === "stopped");
      await term.waitFor(/far\s+stopped/);

      // a host agent streams; the link's ssh is killed; it ends while the link is down
      await host.json(["spawn", "--no-worktree", "--name", "streamer", "--command", 'for i in $(seq 1 8); do echo "line $i"; sleep 0.5; done; troupe signal done', "--json"]);
      await term.waitFor(/streamer\s+running/);
      // select it, so its output is on screen as it streams
      await select(term, "streamer");
      await term.waitFor("line 2");
      const pids = linkPids();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, "SIGKILL");
      await term.waitFor("box unreachable", 15_000);
      // a host agent asks while the link is down: it is there, marked !, once the link is back
      await host.json(["spawn", "--no-worktree", "--name", "late", "--command", "troupe ask 'merge now?' --user", "--json"]);
      await waitFor("streamer done on the host", async () => (await hostAgent("streamer"))?.status === "done", 20_000);
      // under load an ssh login takes seconds, and a try that fails doubles the wait for the next
      await term.waitForNot("unreachable", 45_000);
      await term.waitFor(/! needs you[^\n]*\n[^\n]*! late\s+running[^\n]*box · /, 30_000);
      const after = await term.waitFor(/streamer\s+done[\s\S]*line 8/, 30_000);
      // the output pane: each line once, none lost
      for (let i = 1; i <= 8; i++) expect(after.split("\n").filter((l) => l.includes(`line ${i}`) && !l.includes(`line ${i}0`)).length).toBe(1);
    } finally {
      term.close();
    }
  }, 150_000);

  test("t on a remote agent: its CLI runs on the host through ssh -t on this terminal, and the dashboard comes back", async () => {
    const standIn = ['if [ -n "$TROUPE_ATTACHED" ]; then', '  echo "interactive $TROUPE_AGENT_NAME ready"', '  while IFS= read -r line; do [ "$line" = quit ] && exit 0; echo "got: $line"; done', "fi", "troupe signal done --result ok"].join("\n");
    await host.json(["spawn", "--no-worktree", "--name", "ada", "--command", standIn, "--json"]);
    await waitFor("ada done on the host", async () => (await hostAgent("ada"))?.status === "done");
    const term = new Terminal(local, 160, 30);
    try {
      term.type(`env TROUPE_SSH_COMMAND='${sshd.sshCommand}' ${BIN} --remote box`);
      term.keys("Enter");
      await term.waitFor(/ada\s+done/, 30_000);
      await select(term, "ada");
      term.keys("t");
      await term.waitFor("interactive ada ready", 30_000);
      expect((await hostAgent("ada"))?.status).toBe("attached");
      term.type("hello there");
      term.keys("Enter");
      await term.waitFor("got: hello there");
      term.type("quit");
      term.keys("Enter");
      await term.waitFor("back from ada: done", 30_000);
      expect((await hostAgent("ada"))?.status).toBe("done");
    } finally {
      term.close();
    }
  }, 90_000);
});
