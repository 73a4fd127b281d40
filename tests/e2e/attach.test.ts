/**
 * Taking an agent over in a real terminal (tmux), with the compiled binary: `troupe attach` and
 * the dashboard's `t`. The interactive CLI is a stand-in: a shell-command agent, which attach runs
 * again with TROUPE_ATTACHED=1 on the terminal. It reads lines typed at the keyboard and
 * answers them, so the test sees the keys reach it; `quit` ends it.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const TEST_MS = 60_000;

const STAND_IN = [
  'if [ -n "$TROUPE_ATTACHED" ]; then',
  '  trap \'echo "ctrl-c reached the CLI"\' INT',
  '  echo "interactive $TROUPE_AGENT_NAME ready in $(basename "$PWD")"',
  "  n=0",
  '  while [ $n -lt 50 ]; do n=$((n+1)); IFS= read -r line || continue; [ "$line" = quit ] && exit 0; echo "got: $line"; done',
  "  echo \"reads failed\"; sleep 5; exit 1",
  "fi",
].join("\n");

let sb: Sandbox;
let term: Terminal | null = null;

async function agent(name: string): Promise<Agent | undefined> {
  return (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
}
const statusIs = (name: string, status: string) => async () => (await agent(name))?.status === status;

async function doneAgent(name: string): Promise<void> {
  await sb.json(["spawn", "--name", name, "--command", `${STAND_IN}\ntroupe signal done --result ok`, "--json"]);
  await waitFor(`${name} done`, statusIs(name, "done"));
}

describe.skipIf(!HAVE_TMUX)("taking an agent over in a terminal", () => {
  beforeEach(() => {
    sb = new Sandbox();
  });
  afterEach(async () => {
    term?.close();
    term = null;
    await sb.close();
  });

  test("troupe attach: the CLI gets the terminal (keys reach it, ctrl+c is its own), then the agent is back", async () => {
    await doneAgent("ada");
    term = new Terminal(sb);
    term.type(`${BIN} attach ada`);
    term.keys("Enter");
    await term.waitFor("interactive ada ready in ada");
    expect((await agent("ada"))!.status).toBe("attached");
    term.type("hello there");
    term.keys("Enter");
    await term.waitFor("got: hello there");
    // ctrl+c goes to the CLI, which traps it; troupe attach does not die of it
    term.keys("C-c");
    await term.waitFor("ctrl-c reached the CLI");
    expect((await agent("ada"))!.status).toBe("attached");
    term.type("still here");
    term.keys("Enter");
    await term.waitFor("got: still here");
    term.type("quit");
    term.keys("Enter");
    await term.waitFor("detached from ada: done");
    expect((await agent("ada"))!.status).toBe("done");
  }, TEST_MS);

  test("the terminal goes away while attached (an SSH connection dropped: SIGHUP): the daemon puts the agent back", async () => {
    await doneAgent("hup");
    term = new Terminal(sb);
    term.type(`${BIN} attach hup`);
    term.keys("Enter");
    await term.waitFor("interactive hup ready in hup");
    await waitFor("hup attached", statusIs("hup", "attached"));
    // the tmux server's end hangs the pane's terminal up, as sshd does when the connection drops
    term.close();
    term = null;
    await waitFor("hup back to done", statusIs("hup", "done"));
  }, TEST_MS);

  for (const [cols, rows] of [
    [120, 36],
    [80, 24],
  ] as const) {
    test(`dashboard t at ${cols}×${rows}: leaves the screen to the CLI, keys reach it, and comes back redrawn`, async () => {
      await doneAgent("bo");
      term = new Terminal(sb, cols, rows);
      await term.openDashboard();
      await term.waitFor(/bo\s+done/);
      term.keys("t");
      const cli = await term.waitFor("interactive bo ready in bo");
      // the dashboard left the alternate screen: its frame is not on the CLI's screen
      expect(cli).not.toMatch(/Agents \(\d+/);
      await waitFor("bo attached", statusIs("bo", "attached"));
      term.type("typed in the dashboard's terminal");
      term.keys("Enter");
      await term.waitFor("got: typed in the dashboard's terminal");
      term.type("quit");
      term.keys("Enter");
      const back = await term.waitFor("back from bo: done");
      expect(back).toMatch(/Agents \(\d+/);
      expect(back).not.toContain("interactive bo ready");
      // and it still takes keys: the help opens
      term.keys("?");
      await term.waitFor("take the agent over");
    }, TEST_MS);
  }

  // A CLI that starts slowly: what the person types before it reads is kept by the terminal for
  // it. The dashboard must not be reading the terminal meanwhile, or it takes those keys (Bun's
  // stdin kept a read pending after Ink let go of it: with nothing else reading, every line).
  test("dashboard t: keys typed before the CLI reads are the CLI's, none taken by the dashboard", async () => {
    const go = join(sb.runtime, "go");
    const slowReader = ['if [ -n "$TROUPE_ATTACHED" ]; then', `  echo "slow ready"; while [ ! -e ${go} ]; do sleep 0.05; done`, "  IFS= read -r line; echo \"got: $line\"; IFS= read -r line; exit 0", "fi"].join("\n");
    await sb.json(["spawn", "--name", "sl", "--command", `${slowReader}\ntroupe signal done --result ok`, "--json"]);
    await waitFor("sl done", statusIs("sl", "done"));
    term = new Terminal(sb, 80, 24);
    await term.openDashboard();
    await term.waitFor(/sl\s+done/);
    term.keys("t");
    await term.waitFor("slow ready");
    term.type("typed ahead");
    term.keys("Enter");
    await term.waitFor(/^typed ahead$/m);
    writeFileSync(go, "");
    await term.waitFor("got: typed ahead");
    term.keys("Enter");
    await term.waitFor("back from sl: done");
  }, TEST_MS);

  test("dashboard t on a running agent asks to stop it, then takes it over; it is back stopped", async () => {
    await sb.json(["spawn", "--name", "cy", "--command", `${STAND_IN}\nsleep 100000`, "--json"]);
    await waitFor("cy running", statusIs("cy", "running"));
    term = new Terminal(sb, 80, 24);
    await term.openDashboard();
    await term.waitFor(/cy\s+running/);
    term.keys("t");
    await term.waitFor("Take over cy?");
    term.keys("y");
    await term.waitFor("interactive cy ready in cy", 20_000);
    term.type("quit");
    term.keys("Enter");
    await term.waitFor("back from cy: stopped");
  }, TEST_MS);
});
