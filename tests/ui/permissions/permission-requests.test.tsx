/**
 * Permission requests in the dashboard: a needs-you item, what the agent asks shown under its
 * output, and the `a` dialog (allow once / always / deny; AskUserQuestion's answers; a plan).
 * The requests' inputs are the ones recorded from the real Claude Code CLI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { TroupeError } from "../../../src/errors.ts";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { KEY, renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

type Recorded = { call: { tool_name: string; input: Record<string, unknown> }; answers?: { answer: { updatedInput?: Record<string, unknown> } }[] };
const fixture = (name: string): Recorded => JSON.parse(readFileSync(new URL(`../../fixtures/claude/permission/${name}.json`, import.meta.url), "utf8")) as Recorded;
const BASH = fixture("bash").call.input;
const EDIT = fixture("edit").call;
const ASK = fixture("ask-user-question");
const PLAN = fixture("exit-plan-mode").call.input;

/** A running Claude agent and another one (selected), with a Bash request from the first filed once the dashboard is up; then the first is selected. */
async function withBashRequest(opts: { columns?: number; rows?: number } = {}) {
  const asker = makeAgent({ name: "asker", provider: "claude", cwd: "/tmp/permres-dQVtYx", createdAt: 1 });
  const other = makeAgent({ name: "other", createdAt: Date.now() });
  const client = new FakeClient([asker, other]);
  const s = await renderApp(client, opts);
  screen = s;
  await s.waitFor("other");
  const request = client.addPermission(asker, "Bash", BASH);
  await s.waitFor("! asker");
  await s.press("k"); // the selection stays where it was: the person moves to the agent that needs them
  await s.waitFor("echo hi-from-bash");
  return { client, asker, request, screen: s };
}

const decided = (client: FakeClient) => client.callsOf("decidePermission");

describe("a pending request", () => {
  test("marks the agent, sorts it first, rings once, and shows the command under its output", async () => {
    const { client, screen: s } = await withBashRequest();
    const f = s.frame();
    const rows = f.split("\n");
    const row = rows.findIndex((r) => r.includes("! asker"));
    expect(row).toBeGreaterThan(-1);
    expect(row).toBeLessThan(rows.findIndex((r) => r.includes("  other")));
    expect(f).toContain("1 needs you");
    expect(f).toContain("Permission request");
    expect(f).toContain("asker asks to use Bash");
    expect(f).toContain("$ echo hi-from-bash > out.txt && cat out.txt");
    expect(f).toContain("press a to allow or deny");
    expect(s.bells()).toBe(1);
    client.write(client.agents.values().next().value!.id, "more output\n");
    await s.waitFor("more output");
    expect(s.bells()).toBe(1);
  });

  test("an Edit shows its file and a short diff of the strings", async () => {
    const asker = makeAgent({ name: "editor", provider: "claude", cwd: "/tmp/permres-dQVtYx" });
    const client = new FakeClient([asker]);
    screen = await renderApp(client);
    client.addPermission(asker, EDIT.tool_name, EDIT.input);
    const f = await screen.waitFor("editor asks to use Edit");
    expect(f).toContain("a.txt");
    expect(f).not.toContain("/tmp/permres-dQVtYx/a.txt"); // relative to the agent's folder
    expect(f).toContain("- one");
    expect(f).toContain("+ uno");
  });

  test("one already pending when the dashboard starts shows from the snapshot; one settled while the daemon was gone goes after reconnecting", async () => {
    const asker = makeAgent({ name: "asker", provider: "claude" });
    const client = new FakeClient([asker]);
    const r = client.addPermission(asker, "Bash", BASH);
    screen = await renderApp(client);
    await screen.waitFor("echo hi-from-bash");
    expect(screen.frame()).toContain("1 needs you");
    client.kill();
    await screen.waitFor("daemon not reachable");
    client.settlePermission(r.id, "denied", "person");
    client.revive();
    await screen.waitForNot("echo hi-from-bash");
    expect(screen.frame()).not.toContain("needs you");
  });
});

describe("the permission dialog", () => {
  test("a opens it with allow once selected; enter allows once", async () => {
    const { client, request, screen: s } = await withBashRequest();
    await s.press("a");
    const f = await s.waitFor("Allow asker to use Bash?");
    expect(f).toMatch(/› ● allow once/);
    expect(f).toContain("allow always for this agent: adds Bash(echo hi-from-bash > out.txt && cat out.txt)");
    await s.press(KEY.enter);
    await waitFor(() => decided(client).length === 1, () => `decide called; screen:\n${s.frame()}`);
    expect(decided(client)[0]).toEqual([request.id, { behavior: "allow" }]);
    await s.waitFor("allowed Bash once for asker");
    expect(s.frame()).not.toContain("echo hi-from-bash");
    expect(s.frame()).not.toContain("needs you");
  });

  test("a and enter in one read only open it: the enter typed ahead answers nothing", async () => {
    const { client, screen: s } = await withBashRequest();
    await s.press(`a${KEY.enter}`);
    await s.waitFor("Allow asker to use Bash?");
    // a key's call is made while its read is handled: by the time the dialog shows, a decide would be recorded
    expect(decided(client)).toEqual([]);
    // and an enter with more typed behind it in one read takes the choice, dropping the rest
    await s.press(`${KEY.enter}${KEY.down}${KEY.enter}`);
    await waitFor(() => decided(client).length === 1, () => "decide called");
    expect(decided(client)[0]![1]).toEqual({ behavior: "allow" });
    await s.waitFor("allowed Bash once");
  });

  test("allow always sends always: the rule shown is the one added", async () => {
    const { client, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("allow always");
    await s.press(KEY.down);
    await s.waitFor(/› ● allow always/);
    await s.press(KEY.enter);
    await waitFor(() => decided(client).length === 1, () => "decide called");
    expect(decided(client)[0]![1]).toEqual({ behavior: "allow", always: true });
    await s.waitFor("allowed asker Bash(echo hi-from-bash > out.txt && cat out.txt) from now on");
  });

  test("deny asks for a reason, which goes back with it; no reason is refused in the dialog", async () => {
    const { client, request, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("allow once");
    await s.press(KEY.up); // wraps to deny, the last choice
    await s.waitFor(/› ● deny/);
    await s.press(KEY.enter); // no reason yet: to the reason field
    await s.waitFor("> ");
    await s.press(KEY.enter);
    await s.waitFor("type a reason: the agent reads it");
    expect(decided(client)).toEqual([]);
    await s.press(`use printf instead${KEY.enter}`); // text and enter in one read
    await waitFor(() => decided(client).length === 1, () => `decide called; screen:\n${s.frame()}`);
    expect(decided(client)[0]).toEqual([request.id, { behavior: "deny", reason: "use printf instead" }]);
    await s.waitFor("denied Bash to asker");
  });

  test("esc leaves it waiting", async () => {
    const { client, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("Allow asker");
    await s.press(KEY.esc);
    await s.waitForNot("Allow asker");
    expect(s.frame()).toContain("echo hi-from-bash");
    expect(decided(client)).toEqual([]);
  });
});

describe("a request settled without the dialog", () => {
  test("answered elsewhere: the dialog closes with a line saying so", async () => {
    const { client, request, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("Allow asker");
    client.settlePermission(request.id, "allowed", "person");
    await s.waitFor("asker's Bash request was already allowed elsewhere");
    expect(s.frame()).not.toContain("Allow asker");
    await s.press(KEY.enter); // the enter meant for the dialog decides nothing now
    expect(decided(client)).toEqual([]);
  });

  test("its agent ended: the dialog closes with a line saying so", async () => {
    const { client, request, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("Allow asker");
    client.settlePermission(request.id, "cancelled", "ended");
    await s.waitFor("asker's Bash request no longer waits: the agent ended");
  });

  test("refused by the daemon (decided a moment before): one line, the dialog closes, no stack", async () => {
    const { client, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("Allow asker");
    client.failNext.set("decidePermission", new TroupeError("conflict", "perm_1 was already denied (by the CLI)"));
    await s.press(KEY.enter);
    const f = await s.waitFor("perm_1 was already denied (by the CLI)");
    expect(f).not.toContain("Allow asker");
    expect(f).not.toMatch(/at .*\.ts:\d+/);
  });

  test("the daemon unreachable when sending: the dialog stays, with the error", async () => {
    const { client, screen: s } = await withBashRequest();
    await s.press("a");
    await s.waitFor("Allow asker");
    client.failNext.set("decidePermission", new TroupeError("daemon_unavailable", "no daemon answers on /fake.sock"));
    await s.press(KEY.enter);
    await s.waitFor("no daemon answers");
    expect(s.frame()).toContain("Allow asker");
  });
});

describe("AskUserQuestion", () => {
  test("its questions in the dialog; the answers go back beside the questions, as Claude Code takes them", async () => {
    const asker = makeAgent({ name: "planner", provider: "claude" });
    const client = new FakeClient([asker]);
    screen = await renderApp(client);
    const r = client.addPermission(asker, "AskUserQuestion", ASK.call.input, "question");
    const pane = await screen.waitFor("planner asks you");
    expect(pane).toContain("1. [Database] Which database should we use?");
    expect(pane).toContain("press a to answer its questions");
    await screen.press("a");
    await screen.waitFor("Questions from planner");
    // SQLite, no free text; tick Auth and Search; no free text; the last enter sends
    await screen.press(KEY.right, KEY.enter, KEY.enter, " ", KEY.enter, " ", KEY.enter);
    await screen.waitFor("Other (optional: added to the ticked ones)");
    await screen.press(KEY.enter);
    await waitFor(() => decided(client).length === 1, () => `decide called; screen:\n${screen!.frame()}`);
    const recorded = ASK.answers![1]!.answer.updatedInput!;
    expect(decided(client)[0]).toEqual([r.id, { behavior: "allow", updatedInput: { questions: recorded.questions, answers: recorded.answers } }]);
    await screen.waitFor("answered planner's questions");
  });

  test("free text replaces the choice; a question left unanswered is refused in the dialog", async () => {
    const asker = makeAgent({ name: "planner", provider: "claude" });
    const client = new FakeClient([asker]);
    screen = await renderApp(client);
    client.addPermission(asker, "AskUserQuestion", ASK.call.input, "question");
    await screen.waitFor("planner asks you");
    await screen.press("a");
    await screen.waitFor("Questions from planner");
    await screen.press(KEY.enter, `MariaDB on the old box${KEY.enter}`, KEY.ctrlS);
    await screen.waitFor("answer question 2: Which features do you want?");
    expect(decided(client)).toEqual([]);
    await screen.press(KEY.tab, KEY.tab, `none${KEY.ctrlS}`); // past Auth and Search to the free text
    await waitFor(() => decided(client).length === 1, () => `decide called; screen:\n${screen!.frame()}`);
    const d = decided(client)[0]![1] as { updatedInput: { answers: Record<string, string> } };
    expect(d.updatedInput.answers).toEqual({ "Which database should we use?": "MariaDB on the old box", "Which features do you want?": "none" });
  });
});

describe("ExitPlanMode", () => {
  test("the plan shows in the pane; enter approves it", async () => {
    const asker = makeAgent({ name: "planner", provider: "claude" });
    const client = new FakeClient([asker]);
    screen = await renderApp(client);
    const r = client.addPermission(asker, "ExitPlanMode", PLAN, "plan");
    const f = await screen.waitFor("Plan to approve");
    expect(f).toContain("# Plan from file");
    expect(f).toContain("1. step one");
    await screen.press("a");
    await screen.waitFor(/› ● approve the plan/);
    await screen.press(KEY.enter);
    await waitFor(() => decided(client).length === 1, () => "decide called");
    expect(decided(client)[0]).toEqual([r.id, { behavior: "allow" }]);
    await screen.waitFor("approved planner's plan");
  });

  test("sent back with a comment: a deny whose reason is the comment", async () => {
    const asker = makeAgent({ name: "planner", provider: "claude" });
    const client = new FakeClient([asker]);
    screen = await renderApp(client);
    const r = client.addPermission(asker, "ExitPlanMode", PLAN, "plan");
    await screen.waitFor("Plan to approve");
    await screen.press("a");
    await screen.waitFor("send it back with a comment");
    await screen.press(KEY.down, KEY.enter, `Split step 2 into two commits${KEY.enter}`);
    await waitFor(() => decided(client).length === 1, () => `decide called; screen:\n${screen!.frame()}`);
    expect(decided(client)[0]).toEqual([r.id, { behavior: "deny", reason: "Split step 2 into two commits" }]);
    await screen.waitFor("sent planner's plan back");
  });
});

describe("at 80x24", () => {
  test("the request under the output and the dialog fit", async () => {
    const { client, screen: s } = await withBashRequest({ columns: 80, rows: 24 });
    const check = (f: string) => {
      const lines = f.split("\n");
      expect(lines.length).toBeLessThanOrEqual(24);
      for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(80);
    };
    check(await s.waitFor("press a to allow or deny"));
    await s.press("a");
    check(await s.waitFor(/allow once[\s\S]*deny/));
    await s.press(KEY.enter);
    await waitFor(() => decided(client).length === 1, () => "decide called");
  });
});
