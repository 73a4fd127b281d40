/**
 * A permission request of a remote agent, allowed from the dashboard on this machine: the real
 * Claude Code CLI under `--permissions ask` on the "host" (a sandbox reached through a real sshd
 * on 127.0.0.1, its daemon running the agent against the scripted Messages API), the compiled
 * dashboard here in tmux over `--remote box`. The request's id is numbered by the host's daemon
 * (`perm_1`), tagged with its source here; `a` + enter decides it on the host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import { HAVE_SSHD, Sshd } from "../support/sshd.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { bash, lastToolResult, text, turnIndex } from "../support/fake-anthropic.ts";

const claude = useClaudeTroupe();
let sshd: Sshd | undefined;
let local: Sandbox | undefined;

describe.skipIf(!HAVE_SSHD || !HAVE_TMUX)("a remote agent's permission request, allowed here", () => {
  beforeAll(() => {
    local = new Sandbox();
  });
  afterAll(async () => {
    await local?.close();
    sshd?.close();
  });

  test("the host's Bash call waits; the dashboard here shows it first and a + enter allows it on the host", async () => {
    const host = claude.sandbox();
    const hostHome = join(host.runtime, "home");
    mkdirSync(hostHome);
    sshd = await Sshd.start({ HOME: hostHome, TROUPE_SOCKET: host.socket, XDG_STATE_HOME: host.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: host.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
    const env = { TROUPE_SSH_COMMAND: sshd.sshCommand, TROUPE_REMOTE_TIMEOUT: "20" };
    expect((await local!.run(["remote", "add", "box", `127.0.0.1:${sshd.port}`, "--path", host.dir, "--troupe", BIN], { env })).code).toBe(0);

    claude.scripts.set("gatekeeper", (req) => {
      const step = turnIndex(req);
      if (step === 0) return [bash("echo allowed-ran > ran.txt && git add ran.txt && git commit -qm ran && cat ran.txt")];
      if (step === 1) return [bash(`troupe signal done --result "ran: ${(lastToolResult(req)?.text ?? "nothing").replace(/["`$\\]/g, "")}"`)];
      return [text("Done.")];
    });
    await host.json(["spawn", "--provider", "claude", "--permissions", "ask", "--allow", "Bash(troupe signal *)", "--name", "gatekeeper", "--prompt", "Run the command.", "--json"]);
    const pending = await waitFor("the host's request", async () => (await host.json<PermissionRequest[]>(["permissions", "--json"])).find((r) => r.status === "pending"), 60_000);

    const term = new Terminal(local!, 120, 30);
    try {
      term.type(`env TROUPE_SSH_COMMAND='${sshd.sshCommand}' ${BIN} --remote box`);
      term.keys("Enter");
      const screen = await term.waitFor("$ echo allowed-ran > ran.txt && git add", 30_000);
      expect(screen).toMatch(/! needs you[^\n]*\n[^\n]*› \S+ ! gatekeeper[^\n]*box · /);
      term.keys("a");
      await term.waitFor("allow once");
      term.keys("Enter");
      await term.waitFor("allowed Bash once for gatekeeper", 20_000);
      // decided on the host, by the person
      const decided = (await host.json<PermissionRequest[]>(["permissions", "--all", "--json"])).find((r) => r.id === pending.id);
      expect(decided).toMatchObject({ status: "allowed", decidedBy: "person" });
      const done = await waitFor("gatekeeper done on the host", async () => {
        const a = (await host.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "gatekeeper");
        return a && !["running", "starting"].includes(a.status) ? a : undefined;
      }, 60_000);
      expect(done).toMatchObject({ status: "done", result: "ran: allowed-ran" });
      await term.waitForNot(/! +gatekeeper/);
    } finally {
      term.close();
    }
  }, 180_000);
});
