/**
 * The dashboard over several workspaces of this machine (`troupe --workspace A --workspace B`,
 * `troupe -A`): the compiled binary in tmux, two real daemons in one runtime folder of the test's
 * own (as a user's are), agents that are shell commands. What a person sees and does: one list
 * with a header per workspace and those that need them first, an answer and a stop that reach
 * the agent's own daemon, a daemon killed and back.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal, listLines } from "../support/terminal.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const TEST_MS = 90_000;
let a: Sandbox | undefined;
let b: Sandbox | undefined;
let term: Terminal | undefined;
let runtime: string | undefined;

afterEach(async () => {
  term?.close();
  for (const sb of [a, b]) if (sb) await sb.run(["daemon", "stop"], { env: env() });
  await a?.close();
  await b?.close();
  if (runtime) rmSync(runtime, { recursive: true, force: true });
  a = b = term = runtime = undefined;
});

/** Both workspaces' daemons in one runtime folder: found there by -A, each by its own folder. */
const env = () => ({ TROUPE_SOCKET: "", XDG_RUNTIME_DIR: runtime! });

function setUp(): void {
  a = new Sandbox();
  b = new Sandbox();
  runtime = mkdtempSync("/tmp/trr-");
  Sandbox.runtimes.push(runtime);
  term = new Terminal(a, 150, 30);
}

const spawnIn = (sb: Sandbox, name: string, command: string) => sb.json<Agent>(["spawn", "--no-worktree", "--name", name, "--command", command, "--json"], { env: env() });
const agentIn = async (sb: Sandbox, name: string) => (await sb.json<Agent[]>(["ls", "--json"], { env: env() })).find((x) => x.name === name);

async function open(args: string): Promise<void> {
  // CI=true (as CI sets it) turns colours off: the greyed rows are checked by their escapes
  term!.type(`env -u CI TROUPE_SOCKET= XDG_RUNTIME_DIR=${runtime} ${BIN} ${args}`);
  term!.keys("Enter");
  await term!.waitFor(/Agents \(\d+/);
}

test.skipIf(!HAVE_TMUX)(
  "two workspaces in one list: a header each, the one that asks first; its answer and a stop reach its own daemon",
  async () => {
    setUp();
    await spawnIn(a!, "alpha", "sleep 600");
    await spawnIn(b!, "gamma", "sleep 600");
    const ask = 'if [ ! -f asked ]; then touch asked; troupe signal questions --question "Which colour?"; exit 0; fi; troupe signal done --result "$TROUPE_PROMPT"';
    await spawnIn(b!, "beta", ask);
    await waitFor("beta waiting", async () => (await agentIn(b!, "beta"))?.status === "waiting");
    await open(`--workspace ${a!.dir} --workspace ${b!.dir}`);
    const screen = await term!.waitFor(/alpha\s+running[\s\S]*gamma\s+running/);
    const la = (x: Sandbox) => x.dir.split("/").at(-1)!;
    // the one that needs the person first, saying where it is; then each workspace under its folder
    const lines = listLines(screen);
    expect(lines[0]).toContain("! needs you");
    expect(lines[1]).toMatch(new RegExp(`beta\\s+waiting.*${la(b!).slice(0, 8)}`));
    expect(lines[2]).toContain(`── ${a!.dir}`);
    expect(lines[3]).toMatch(/alpha\s+running/);
    expect(lines[4]).toContain(`── ${b!.dir}`);
    expect(lines[5]).toMatch(/gamma\s+running/);
    expect(screen).toMatch(/troupe · 3 agents · 2 running · 1 needs you · \S+, \S+/);
    // the selection starts on an agent (beta), never on a header: `a` answers it
    await term!.waitFor(/› \S+\s+! beta/);
    term!.keys("a");
    await term!.waitFor("Which colour?");
    term!.type("teal");
    await term!.waitFor("> teal");
    term!.keys("Enter");
    const done = await waitFor("beta done in its own workspace", async () => {
      const x = await agentIn(b!, "beta");
      return x?.status === "done" && x;
    });
    expect(done.result).toContain("teal");
    // beta, done, moves under its workspace's header with the selection on it; one up is gamma
    await term!.waitForNot("! needs you");
    await term!.waitFor(/── [^\n]*\n[^\n]*gamma[^\n]*\n› \S+\s+beta\s+done/);
    term!.keys("k");
    await term!.waitFor(/› \S+\s+gamma/);
    term!.keys("s");
    await term!.waitFor("Stop gamma?");
    term!.keys("y");
    await waitFor("gamma stopped", async () => (await agentIn(b!, "gamma"))?.status === "stopped");
    expect((await agentIn(a!, "alpha"))?.status).toBe("running");
    await term!.waitFor(/gamma\s+stopped/);
  },
  TEST_MS,
);

test.skipIf(!HAVE_TMUX)(
  "-A: a workspace whose daemon is killed is named in the header and greyed; it comes back by itself, its agents as they are",
  async () => {
    setUp();
    await spawnIn(a!, "alpha", "sleep 600");
    await spawnIn(b!, "beta", "sleep 3; echo finished; troupe signal done --result ok");
    await open("-A");
    await term!.waitFor(/beta\s+running/);
    const daemonPid = (await b!.json<{ pid: number }>(["daemon", "status", "--json"], { env: env() })).pid;
    process.kill(daemonPid, "SIGKILL");
    const down = await term!.waitFor("unreachable");
    expect(down).toMatch(new RegExp(`${b!.dir.split("/").at(-1)} unreachable`));
    // its header says so and its agents are greyed (SGR 2), the other workspace's are not
    const styled = term!.tmux("capture-pane", "-p", "-e", "-t", "t").split("\n").map((l) => l.split("│")[0]!);
    expect(styled.find((l) => l.includes(`── ${b!.dir}`))).toContain("disconnected");
    const dimmed = (l: string | undefined) => /\x1b\[(?:[0-9;]*;)?2[;m]/.test((l ?? "").replace(/(?:\x1b\[[0-9;]*m)+$/, ""));
    expect(dimmed(styled.find((l) => /\sbeta\s/.test(l)))).toBe(true);
    expect(dimmed(styled.find((l) => /\salpha\s/.test(l)))).toBe(false);
    // the dashboard starts a workspace's daemon again (as it does with one); beta ended meanwhile
    await term!.waitForNot("unreachable", 20_000);
    await term!.waitFor(/beta\s+done/, 20_000);
    expect(listLines(term!.screen()).some((l) => /alpha\s+running/.test(l))).toBe(true);
  },
  TEST_MS,
);
