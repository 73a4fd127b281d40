/**
 * The dashboard as a person uses it: the compiled binary in a real terminal (tmux), against a
 * real daemon with real agents (shell commands). Keys go in with send-keys, the screen comes
 * back with capture-pane; every wait is a poll with a deadline.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BIN, BIN_RUNTIME, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";

const TEST_MS = 60_000;
interface AgentJson {
  id: string;
  name: string;
  status: string;
  result: string | null;
  questions: { id: string; question: string }[] | null;
}

let sb: Sandbox;
let term: Terminal;

async function spawn(name: string, command: string): Promise<AgentJson> {
  return sb.json<AgentJson>(["spawn", "--no-worktree", "--name", name, "--command", command, "--json"]);
}

async function agent(name: string): Promise<AgentJson> {
  return sb.json<AgentJson>(["ls", "--json"]).then((all) => (all as unknown as AgentJson[]).find((a) => a.name === name)!);
}

const statusIs = (name: string, status: string) => () => agent(name).then((a) => a?.status === status && a);

describe.skipIf(!HAVE_TMUX)("dashboard in a terminal", () => {
  beforeEach(() => {
    sb = new Sandbox();
    term = new Terminal(sb);
  });
  afterEach(async () => {
    term.close();
    await sb.close();
  });

  test("lists agents with their statuses and streams output into the pane", async () => {
    await spawn("sleepy", "sleep 600");
    await spawn("quick", "echo quick was here; troupe signal done --result ok");
    await waitFor("quick done", statusIs("quick", "done"));
    await term.openDashboard();
    let s = await term.waitFor("sleepy");
    expect(s).toContain("quick");
    expect(s).toMatch(/sleepy\s+running/);
    expect(s).toMatch(/quick\s+done/);
    // A new agent appears at once and its output streams in while it runs.
    await spawn("ticker", 'for i in $(seq 1 25); do echo "tick $i"; sleep 0.1; done; troupe signal done');
    await term.waitFor("ticker");
    // The newest running agent sorts above sleepy, which stays selected: one up.
    term.keys("k");
    await term.waitFor("Output · ticker");
    await term.waitFor("tick 3");
    s = await term.waitFor("tick 25");
    await term.waitFor(/ticker\s+done/);
    expect(s).toContain("tick 24");
  }, TEST_MS);

  test("an agent's questions are answered through the a dialog: it runs again and ends with the answer", async () => {
    // First session asks; the resumed session gets the answers in its prompt ($TROUPE_PROMPT for a
    // shell-command agent) and ends with them as its result.
    const cmd = [
      'if [ ! -f asked ]; then touch asked; troupe signal questions --question "Which colour?"; exit 0; fi',
      'a="$(printf "%s\\n" "$TROUPE_PROMPT" | sed -n "s/^A: //p" | head -1)"',
      'echo "resumed with: $a"; sleep 1; troupe signal done --result "colour=$a"',
    ].join("\n");
    await spawn("asker", cmd);
    await waitFor("asker waiting", statusIs("asker", "waiting"));
    await term.openDashboard();
    await term.waitFor(/asker\s+waiting/);
    term.keys("a");
    await term.waitFor("Which colour?");
    // Typed, then Enter once the text shows: the path of a person typing.
    term.type("teal");
    await term.waitFor("> teal");
    term.keys("Enter");
    await term.waitFor("answered asker");
    await waitFor("asker running again or done", async () => {
      const a = await agent("asker");
      return a.status === "running" || a.status === "done" ? a : undefined;
    });
    await term.waitFor(/asker\s+(running|done)/);
    const done = await waitFor("asker done", statusIs("asker", "done"));
    expect(done.result).toBe("colour=teal");
    await term.waitFor(/asker\s+done/);
  }, TEST_MS);

  test("a user conversation asked with troupe ask --user is answered from the dashboard", async () => {
    await spawn("carol", 'a=$(troupe ask "deploy to prod?" --user) && troupe signal done --result "got:$a"');
    await term.openDashboard();
    await term.waitFor("1 needs you");
    await term.waitFor(/carol/);
    term.keys("a");
    await term.waitFor("carol asks: deploy to prod?");
    // Text and Enter in one send-keys, one write: as keys arrive over a slow SSH link or from a paste.
    term.keys("yes, ship it", "Enter");
    const done = await waitFor("carol done", statusIs("carol", "done"));
    expect(done.result).toBe("got:yes, ship it");
    await term.waitForNot("needs you");
    // the daemon that served it runs on the build's runtime (TROUPE_BIN=dist/troupe-deno: Deno, not Bun)
    expect(await sb.daemonRuntime()).toBe(BIN_RUNTIME);
  }, TEST_MS);

  test("a message from troupe send --user is a needs-you item: a shows it and marks it read", async () => {
    await spawn("dora", "troupe send --user hello && troupe signal done");
    await waitFor("dora done", statusIs("dora", "done"));
    await term.openDashboard();
    await term.waitFor("1 needs you");
    await term.waitFor(/! dora/);
    term.keys("a");
    await term.waitFor("Messages from dora");
    await term.waitFor("hello");
    const read = await waitFor("the message read", async () => {
      const all = await sb.json<{ text: string; status: string }[]>(["inbox", "--after", "0", "--json"]);
      return all.length === 1 && all[0]!.status === "read" && all;
    });
    expect(read[0]!.text).toBe("hello");
    term.keys("Enter");
    await term.waitForNot("needs you");
  }, TEST_MS);

  test("quitting leaves agents running and the terminal as it was; 80x24 stays usable", async () => {
    await spawn("sleepy", "sleep 600");
    await spawn("chatty", 'for i in $(seq 1 200); do echo "a rather long line of output number $i that will need wrapping in a narrow pane"; done; sleep 600');
    await term.openDashboard();
    await term.waitFor("chatty");
    expect(term.format("#{alternate_on}")).toBe("1");

    term.resize(80, 24);
    const narrow = await waitFor("an 80-column frame", () => {
      const s = term.screen();
      const lines = s.replace(/\n$/, "").split("\n");
      return lines.length <= 24 && s.includes("Agents (2)") && s.includes("Output") && lines.every((l) => Bun.stringWidth(l) <= 80) ? s : undefined;
    });
    const rows = narrow.split("\n");
    expect(rows.findIndex((l) => l.includes("Output"))).toBeGreaterThan(rows.findIndex((l) => l.includes("Agents (2)")));
    term.keys("?");
    await term.waitFor("select the agent above");
    term.keys("End");
    await term.waitFor("y/enter");
    term.keys("Escape");
    await term.waitForNot("y/enter");

    term.keys("q");
    const after = await term.waitFor("dashboard closed");
    expect(after).toContain("2 agents keep running");
    await waitFor("primary screen and cursor back", () => term.format("#{alternate_on} #{cursor_flag}") === "0 1");
    // The shell reads a line again (not raw): what is typed echoes and runs.
    term.type("echo back-$((40+2))");
    term.keys("Enter");
    await term.waitFor("back-42");
    expect((await agent("sleepy")).status).toBe("running");
    expect((await agent("chatty")).status).toBe("running");
  }, TEST_MS);

  test("the frame is drawn from the top of the screen wherever the shell left the cursor, and the text before it is there after", async () => {
    await spawn("sleepy", "sleep 600");
    term.resize(80, 24);
    // the cursor mid-row when the dashboard starts: its header used to start there and wrap
    term.type(`printf 'text with no newline: '; ${BIN}`);
    term.keys("Enter");
    const s = await term.waitFor(/Agents \(1\)/);
    const rows = s.replace(/\n$/, "").split("\n");
    expect(rows[0]).toMatch(/^ troupe · .* · 1 agent · 1 running +agents · \? help$/); // capture-pane drops trailing spaces
    expect(rows[1]).toMatch(/^▌ Agents \(1\)/);
    term.keys("q");
    const after = await term.waitFor("dashboard closed");
    expect(after).toContain("text with no newline: troupe: dashboard closed");
  }, TEST_MS);

  test("the daemon going away shows a banner, and the dashboard comes back with it", async () => {
    await spawn("sleepy", "sleep 600");
    await term.openDashboard();
    await term.waitFor("sleepy");
    await sb.run(["daemon", "stop"]);
    await term.waitFor("daemon not reachable");
    expect(term.screen()).toContain("sleepy");
    await sb.run(["daemon", "start"]);
    await term.waitForNot("daemon not reachable");
    await term.waitFor(/sleepy\s+running/);
  }, TEST_MS);
});
