import { afterEach, describe, expect, test } from "bun:test";
import { TroupeError } from "../../../src/errors.ts";
import { FakeClient, makeAgent, makeConversation } from "../helpers/fake-client.ts";
import { KEY, renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

const waiting = (name: string, questions: string[]) =>
  makeAgent({ name, status: "waiting", questions: questions.map((q, i) => ({ id: `q${i + 1}`, question: q })) });

describe("agents list and output", () => {
  test("lists agents with their statuses, the one needing the person first and marked", async () => {
    const run = makeAgent({ name: "runner", status: "running", costUsd: 0.42 });
    const done = makeAgent({ name: "finisher", status: "done" });
    const ask = waiting("asker", ["Which database?"]);
    screen = await renderApp(new FakeClient([run, done, ask]));
    const f = await screen.waitFor("asker");
    const rows = f.split("\n");
    const askRow = rows.findIndex((r) => r.includes("asker") && r.includes("waiting"));
    expect(askRow).toBeLessThan(rows.findIndex((r) => r.includes("runner")));
    expect(rows[askRow]).toContain("!");
    expect(rows[askRow]).toContain("waiting");
    expect(f).toContain("$0.42");
    expect(f).toContain("1 needs you");
  });

  test("output streams into the pane and follows; scrolling up pauses, G follows again", async () => {
    const a = makeAgent({ name: "streamer" });
    const client = new FakeClient([a]);
    screen = await renderApp(client, { rows: 20 });
    await screen.waitFor("no output yet");
    for (let i = 1; i <= 40; i++) client.write(a.id, `out line ${i}\n`);
    await screen.waitFor("out line 40");
    await screen.press(KEY.enter, KEY.pageUp);
    await screen.waitFor("paused");
    client.write(a.id, "out line 41\n");
    await screen.waitFor(/more below/);
    expect(screen.frame()).not.toContain("out line 41");
    await screen.press("G");
    await screen.waitFor("out line 41");
    expect(screen.frame()).toContain("following");
    await screen.press(KEY.home);
    await screen.waitFor("out line 1\n".trimEnd());
  });

  test("v shows the raw lines, rendered again on the second press", async () => {
    const a = makeAgent();
    const client = new FakeClient([a]);
    client.write(a.id, '{"tool":"Bash","input":"{\\"command\\":\\"make test\\"}"}\n', { silent: true });
    screen = await renderApp(client);
    await screen.waitFor("▸ Bash(make test)");
    await screen.press("v");
    await screen.waitFor('{"tool":"Bash"');
    await screen.press("v");
    await screen.waitFor("▸ Bash(make test)");
  });

  test("j/k move the selection and switch the output", async () => {
    const a = makeAgent({ name: "first", createdAt: 3 });
    const b = makeAgent({ name: "second", createdAt: 2 });
    const client = new FakeClient([a, b]);
    client.write(a.id, "from first\n", { silent: true });
    client.write(b.id, "from second\n", { silent: true });
    screen = await renderApp(client);
    await screen.waitFor("from first");
    await screen.press("j");
    await screen.waitFor("from second");
    await screen.press("k");
    await screen.waitFor("from first");
  });

  test("/ filters by status or text; esc clears", async () => {
    const client = new FakeClient([makeAgent({ name: "alpha", status: "done" }), makeAgent({ name: "beta", status: "running" })]);
    screen = await renderApp(client);
    await screen.waitFor("beta");
    await screen.press("/");
    await screen.type("done");
    await screen.waitFor("Agents (1/2)");
    expect(screen.frame()).not.toContain("beta ");
    await screen.press(KEY.enter);
    await screen.waitFor("filter: done");
    await screen.press("/", KEY.esc);
    await screen.waitFor("Agents (2)");
  });
});

describe("answering", () => {
  test("questions: tab/shift+tab move, enter on the last submits all as one resume", async () => {
    const a = waiting("asker", ["Which database?", "Keep the old API?"]);
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("Which database?");
    expect(screen.frame()).toContain("Keep the old API?");
    await screen.type("postgres");
    await screen.press(KEY.ctrlJ);
    await screen.type("v16");
    await screen.press(KEY.tab);
    await screen.type("no");
    await screen.press(KEY.shiftTab, "!", KEY.tab);
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("resume").length === 1, () => "resume called");
    expect(client.callsOf("resume")[0]).toEqual([a.id, { answers: [{ id: "q1", answer: "postgres\nv16!" }, { id: "q2", answer: "no" }] }]);
    await screen.waitFor("answered asker");
    await screen.waitFor("running");
  });

  test("enter on an earlier field moves on; ctrl+s submits from any field; an empty answer is refused in the dialog", async () => {
    const a = waiting("asker", ["One?", "Two?"]);
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("One?");
    await screen.type("1");
    await screen.press(KEY.enter);
    await screen.type("2");
    await screen.press(KEY.shiftTab, KEY.ctrlS);
    await waitFor(() => client.callsOf("resume").length === 1, () => "resume called");
    expect(client.callsOf("resume")[0]![1]).toEqual({ answers: [{ id: "q1", answer: "1" }, { id: "q2", answer: "2" }] });

    const b = waiting("second", ["Three?"]);
    client.setAgent(b, "agent:created");
    await screen.waitFor("second");
    await screen.press("k", "k");
    await screen.press("a");
    await screen.waitFor("Three?");
    await screen.press(KEY.enter);
    await screen.waitFor("type an answer");
    expect(client.callsOf("resume")).toHaveLength(1);
    await screen.press(KEY.esc);
    await screen.waitForNot("Three?");
  });

  test("a user conversation is answered from the dashboard", async () => {
    const a = makeAgent({ name: "talker", status: "running" });
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.waitFor("talker");
    const c = makeConversation({ fromId: a.id, fromName: "talker", question: "May I delete tmp/?" });
    client.addConversation(c);
    await screen.waitFor("1 needs you");
    await screen.press("a");
    await screen.waitFor("talker asks: May I delete tmp/?");
    await screen.type("yes, go ahead");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("answer").length === 1, () => "answer called");
    expect(client.callsOf("answer")[0]).toEqual([c.id, "yes, go ahead"]);
    await screen.waitForNot("needs you");
  });

  test("a conversation from outside any agent can still be answered", async () => {
    const client = new FakeClient([], [makeConversation({ fromId: "cli", fromName: "a script", question: "Deploy now?" })]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("a script asks: Deploy now?");
  });

  test("a refused action shows in the status bar and keeps the dialog", async () => {
    const a = waiting("asker", ["Q?"]);
    const client = new FakeClient([a]);
    client.failNext.set("resume", new TroupeError("invalid_state", "asker is not waiting"));
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("Q?");
    await screen.type("x");
    await screen.press(KEY.enter);
    await screen.waitFor("asker is not waiting");
    expect(screen.frame()).toContain("Q?");
  });
});

describe("messages to the person", () => {
  test("an agent's message marks its row, rings once; a shows it and marks it read; a reply is sent to it", async () => {
    const run = makeAgent({ name: "runner", status: "running" });
    const sender = makeAgent({ name: "sender", status: "done", createdAt: Date.now() - 120_000 });
    const client = new FakeClient([run, sender]);
    screen = await renderApp(client);
    await screen.waitFor("sender");
    const bells = screen.bells();
    const m = client.addMessage(sender, "hello from the sender");
    await screen.waitFor("1 needs you");
    expect(screen.bells()).toBe(bells + 1);
    const rows = screen.frame().split("\n");
    const row = rows.findIndex((r) => r.includes("sender") && r.includes("done"));
    expect(row).toBeLessThan(rows.findIndex((r) => r.includes("runner") && r.includes("running")));
    expect(rows[row]).toContain("!");
    await screen.press("k");
    await screen.press("a");
    await screen.waitFor("hello from the sender");
    await waitFor(() => client.callsOf("markRead").length === 1, () => "markRead called");
    expect(client.callsOf("markRead")[0]).toEqual([m.id]);
    await screen.type("thanks");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("send").length === 1, () => "send called");
    expect(client.callsOf("send")[0]).toEqual([{ to: sender.id, text: "thanks" }]);
    await screen.waitForNot("needs you");
    expect(screen.bells()).toBe(bells + 1);
  });

  test("unread messages in the snapshot show; enter with no reply closes without sending", async () => {
    const sender = makeAgent({ name: "sender", status: "done" });
    const client = new FakeClient([sender]);
    client.addMessage(sender, "first note");
    client.addMessage(sender, "second note");
    screen = await renderApp(client);
    await screen.waitFor("1 needs you");
    await screen.press("a");
    await screen.waitFor("second note");
    expect(screen.frame()).toContain("first note");
    await waitFor(() => client.callsOf("markRead").length === 2, () => "both marked read");
    await screen.press(KEY.enter);
    await screen.waitForNot("second note");
    expect(client.callsOf("send")).toEqual([]);
    await screen.waitForNot("needs you");
  });
});

describe("actions", () => {
  test("n: only installed providers can be chosen; the agent starts with what was typed", async () => {
    const client = new FakeClient([]);
    screen = await renderApp(client);
    await screen.waitFor("no agents yet");
    await screen.press("n");
    await screen.waitFor("Claude Code 2.1.0");
    await screen.waitFor("not installed: pipx install aider-chat");
    await screen.press(KEY.right);
    await screen.waitFor("Shell command");
    await screen.press(KEY.right);
    await screen.waitFor("Claude Code");
    await screen.press(KEY.tab);
    await screen.type("fix the bug");
    await screen.press(KEY.tab);
    await screen.type("fixer");
    await screen.press(KEY.tab, KEY.tab, KEY.tab, " ");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("spawn").length === 1, () => "spawn called");
    expect(client.callsOf("spawn")[0]![0]).toMatchObject({ provider: "claude", prompt: "fix the bug", name: "fixer", worktree: false });
    await screen.waitFor("started fixer");
  });

  test("n offers the profiles beside the providers; a profile starts the agent with its name", async () => {
    const client = new FakeClient([]);
    const profile = { description: "Reviews diffs", model: null, mode: null, permissions: null, allowedTools: null, deny: null, mcpServers: null, budget: null, sandbox: null, instructions: "Review.", source: "repository" as const, file: "/r/.troupe/profiles/x.md", trusted: null };
    client.profileList = [
      { ...profile, name: "reviewer", provider: "claude" },
      { ...profile, name: "aidy", provider: "aider", description: null },
    ];
    screen = await renderApp(client);
    await screen.waitFor("no agents yet");
    await screen.press("n");
    await screen.waitFor("Claude Code 2.1.0");
    await screen.press(KEY.right, KEY.right);
    await screen.waitFor("Profile reviewer (claude): Reviews diffs");
    // a profile whose CLI is not installed is shown, not chosen
    await screen.press(KEY.right);
    await screen.waitFor("Claude Code");
    await screen.press(KEY.left);
    await screen.waitFor("Profile reviewer (claude)");
    await screen.press(KEY.tab);
    await screen.type("review main");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("spawn").length === 1, () => `spawn called; screen:\n${screen!.frame()}`);
    const req = client.callsOf("spawn")[0]![0] as Record<string, unknown>;
    expect(req).toMatchObject({ profile: "reviewer", prompt: "review main" });
    expect(req.provider).toBeUndefined();
  });

  test("P asks first, then pushes and opens the pull request: its result in one line, a PR marker on the row", async () => {
    const a = makeAgent({ name: "fixer", status: "done", branch: "troupe/fixer", createdAt: Date.now() - 120_000 });
    const client = new FakeClient([a, makeAgent({ name: "loose", status: "done", branch: null, createdAt: Date.now() - 60_000 })]);
    screen = await renderApp(client);
    // the newest first: an agent without a branch of its own says why, no dialog
    await screen.waitFor("fixer");
    await screen.press("P");
    await screen.waitFor("loose has no branch of its own");
    await screen.press("j", "P");
    await screen.waitFor("Pull request for fixer?");
    await screen.press("n");
    await screen.waitForNot("Pull request for fixer?");
    expect(client.callsOf("pullRequest")).toHaveLength(0);
    await screen.press("P", "y");
    await waitFor(() => client.callsOf("pullRequest").length === 1, () => "pullRequest called");
    expect(client.callsOf("pullRequest")[0]![0]).toBe(a.id);
    await screen.waitFor("pushed troupe/fixer; opened pull request #7: https://github.com/acme/app/pull/7");
    await screen.waitFor("[PR #7]");
    // again: the open one is reported, not a second
    await screen.press("P", "y");
    await screen.waitFor("pull request #7 is open already");
    expect(client.callsOf("pullRequest")).toHaveLength(2);
  });

  test("s asks first, then stops; r resumes with a message", async () => {
    const a = makeAgent({ name: "worker", status: "running" });
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("s");
    await screen.waitFor("Stop worker?");
    await screen.press("n");
    await screen.waitForNot("Stop worker?");
    expect(client.callsOf("stop")).toHaveLength(0);
    await screen.press("s", "y");
    await waitFor(() => client.callsOf("stop").length === 1, () => "stop called");
    await screen.waitFor("stopped worker");
    await screen.press("r");
    await screen.waitFor("Resume worker");
    await screen.type("carry on");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("resume").length === 1, () => "resume called");
    expect(client.callsOf("resume")[0]).toEqual([a.id, { message: "carry on" }]);
  });

  test("m sends a running agent a message as it is, without a resume; an empty one is refused", async () => {
    const a = makeAgent({ name: "busy", status: "running" });
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("m");
    await screen.waitFor("Message busy");
    await screen.press(KEY.enter);
    await screen.waitFor("type a message");
    await screen.type("also update the changelog");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("send").length === 1, () => "send called");
    expect(client.callsOf("send")[0]).toEqual([{ to: a.id, text: "also update the changelog" }]);
    await screen.waitFor("sent to busy");
    expect(client.callsOf("resume")).toHaveLength(0);
  });

  test("d shows the diff, scrollable, esc goes back; p shows the phases placeholder; ? the keys", async () => {
    const a = makeAgent({ name: "brancher", branch: "troupe/brancher", baseRef: "main" });
    const diff = ["diff --git a/f b/f", ...Array.from({ length: 60 }, (_, i) => `+added ${i}`)];
    screen = await renderApp(new FakeClient([a]), { diff, rows: 20 });
    await screen.press("d");
    await screen.waitFor("main...troupe/brancher");
    await screen.waitFor("+added 0");
    await screen.press(KEY.pageDown);
    await screen.waitForNot("+added 0");
    await screen.press(KEY.esc);
    await screen.waitFor("Agents (1)");
    await screen.press("p");
    await screen.waitFor("no initiatives yet");
    await screen.press(KEY.esc, "?");
    await screen.waitFor("select the agent above");
    await screen.press(KEY.pageDown);
    await screen.waitFor("quit the dashboard (agents keep running)");
    await screen.press(KEY.end);
    await screen.waitFor("y/enter");
    await screen.press(KEY.esc);
    await screen.waitFor("Agents (1)");
  });
});

describe("terminal", () => {
  test("usable at 80x24: panes stack and every line fits", async () => {
    const agents = Array.from({ length: 30 }, (_, i) => makeAgent({ name: `agent-number-${i}`, prompt: "a long prompt ".repeat(10), createdAt: Date.now() - 60_000 - i }));
    const client = new FakeClient(agents);
    client.write(agents[0]!.id, `${"wide output ".repeat(20)}\n`, { silent: true });
    screen = await renderApp(client, { columns: 140, rows: 40 });
    await screen.waitFor("wide output");
    await screen.resize(80, 24);
    const f = await screen.waitFor(/Output/);
    const lines = f.split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(80);
    expect(lines.findIndex((l) => l.includes("Output"))).toBeGreaterThan(lines.findIndex((l) => l.includes("Agents")));
    expect(f).toContain("wide output");
  });

  test("without colour the statuses and selection still read", async () => {
    const client = new FakeClient([makeAgent({ name: "one", status: "failed" }), waiting("two", ["?"])]);
    screen = await renderApp(client, { theme: { color: false, ascii: true } });
    const f = await screen.waitFor("one");
    expect(f).not.toContain("\x1b[");
    expect(f).toMatch(/> \? ! two/);
    expect(f).toMatch(/x {3}one/);
  });

  test("daemon gone: a banner, the list kept, back when it returns", async () => {
    const a = makeAgent({ name: "survivor" });
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.waitFor("survivor");
    client.kill();
    await screen.waitFor("daemon not reachable");
    expect(screen.frame()).toContain("survivor");
    client.revive();
    await screen.waitForNot("daemon not reachable");
  });

  test("q quits", async () => {
    screen = await renderApp(new FakeClient([]));
    await screen.press("q");
    await waitFor(() => screen!.exited(), () => "exit");
  });
});

describe("keys typed together", () => {
  test("each runs against the state the previous one left", async () => {
    const a = makeAgent({ name: "top", createdAt: 3 });
    const b = waiting("asker", ["Which one?"]);
    const c = makeAgent({ name: "bottom", createdAt: 1 });
    screen = await renderApp(new FakeClient([a, b, c]));
    await screen.waitFor("bottom");
    await screen.press("jjkka"); // one read: down, down, up, up, answer (asker sorts first)
    await screen.waitFor("Which one?");
  });
});

describe("input arriving in one read (a slow SSH link, a paste, tmux send-keys)", () => {
  test("text and enter in one chunk submit the answer", async () => {
    const a = makeAgent({ name: "talker", status: "running" });
    const c = makeConversation({ fromId: a.id, fromName: "talker", question: "Ship it?" });
    const client = new FakeClient([a], [c]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("talker asks: Ship it?");
    await screen.press("yes, ship it\r");
    await waitFor(() => client.callsOf("answer").length === 1, () => `answer called; screen:\n${screen!.frame()}`);
    expect(client.callsOf("answer")[0]).toEqual([c.id, "yes, ship it"]);
  });

  test("enter inside a chunk moves on, the rest goes to the next field, a final enter submits", async () => {
    const a = waiting("asker", ["One?", "Two?"]);
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("Two?");
    await screen.press("first\rsecond\r");
    await waitFor(() => client.callsOf("resume").length === 1, () => `resume called; screen:\n${screen!.frame()}`);
    expect(client.callsOf("resume")[0]![1]).toEqual({ answers: [{ id: "q1", answer: "first" }, { id: "q2", answer: "second" }] });
  });

  test("what follows a key that opens or closes a dialog is dropped", async () => {
    const a = makeAgent({ name: "worker", status: "running" });
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.waitFor("worker");
    await screen.press("sy"); // s opens the stop dialog; the y typed ahead must not confirm it
    await screen.waitFor("Stop worker?");
    await screen.press("y\rq");
    await waitFor(() => client.callsOf("stop").length === 1, () => "stop called");
    await screen.waitFor("stopped worker");
    expect(screen.exited()).toBe(false);
  });

  test("a paste keeps its newlines in a multi-line field and becomes one line in a single-line one", async () => {
    const a = waiting("asker", ["Plan?"]);
    const client = new FakeClient([a]);
    screen = await renderApp(client);
    await screen.press("a");
    await screen.waitFor("Plan?");
    await screen.press(`${KEY.pasteStart}step one\r\nstep two\r${KEY.pasteEnd}`);
    await screen.waitFor("step two");
    await screen.press(KEY.enter);
    await waitFor(() => client.callsOf("resume").length === 1, () => `resume called; screen:\n${screen!.frame()}`);
    expect(client.callsOf("resume")[0]![1]).toEqual({ answers: [{ id: "q1", answer: "step one\nstep two" }] });

    await screen.press("n");
    await screen.waitFor("Claude Code 2.1.0");
    await screen.press(KEY.tab);
    await screen.press(`${KEY.pasteStart}do\nit${KEY.pasteEnd}`, KEY.tab);
    await screen.press(`${KEY.pasteStart}my\nname${KEY.pasteEnd}`, KEY.enter);
    await waitFor(() => client.callsOf("spawn").length === 1, () => `spawn called; screen:\n${screen!.frame()}`);
    expect(client.callsOf("spawn")[0]![0]).toMatchObject({ provider: "claude", prompt: "do\nit", name: "my name" });
  });
});

describe("keys that cannot act now", () => {
  test("the hint line leaves out stop for an agent that is not running, and a press says why", async () => {
    const run = makeAgent({ name: "runner", status: "running", createdAt: 2 });
    const done = makeAgent({ name: "finisher", status: "done", createdAt: 1 });
    screen = await renderApp(new FakeClient([run, done]));
    await screen.waitFor("finisher");
    expect(screen.frame()).toContain("s stop");
    expect(screen.frame()).not.toContain("a answer");
    await screen.press("j");
    await screen.waitForNot("s stop");
    await screen.press("s");
    await screen.waitFor("finisher is done, not running");
  });

  test("/ with a filter kept: the first character typed starts a new filter", async () => {
    const client = new FakeClient([makeAgent({ name: "alpha", status: "done" }), makeAgent({ name: "beta", status: "running" })]);
    screen = await renderApp(client);
    await screen.press("/");
    await screen.type("done");
    await screen.press(KEY.enter);
    await screen.waitFor("filter: done");
    await screen.press("/");
    await screen.type("beta");
    await screen.press(KEY.enter);
    await screen.waitFor("filter: beta");
    expect(screen.frame()).toContain("Agents (1/2)");
  });

  test("↓ and ↑ move through the new-agent form; a choice keeps them for its options", async () => {
    const client = new FakeClient([]);
    screen = await renderApp(client);
    await screen.press("n");
    await screen.waitFor("Claude Code 2.1.0");
    await screen.press(KEY.down);
    await screen.waitFor("Shell command"); // on the choice, ↓ picks the next option
    await screen.press(KEY.tab, "echo hi", KEY.down, "runner", KEY.up, KEY.up);
    await screen.press(KEY.tab, KEY.down, KEY.enter);
    await waitFor(() => client.callsOf("spawn").length === 1, () => `spawn called; screen:\n${screen!.frame()}`);
    expect(client.callsOf("spawn")[0]![0]).toMatchObject({ provider: "generic", command: "echo hi", name: "runner" });
  });
});
