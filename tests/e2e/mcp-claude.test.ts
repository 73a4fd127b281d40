/**
 * The real Claude Code CLI with troupe's MCP server, as troupe configures it for every agent,
 * against a scripted local Messages API: a supervisor's handoff and assign, a worker's report with
 * send_message, and a message to a running agent delivered once after its run.
 */
import { describe, expect, test } from "bun:test";
import { waitFor } from "../support/sandbox.ts";
import { bash, findInHistory, lastToolResult, text, toolUse, turnIndex, userTexts, type ScriptRequest } from "../support/fake-anthropic.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";

const troupe = useClaudeTroupe();
const { scripts, server, sandbox, ended, agent } = troupe;

/** The requests the model got for one agent, in order. */
const requestsOf = (name: string) => server.mainRequests().filter((r) => findInHistory(r, /You are agent "([a-z0-9-]+)"/)?.[1] === name);
/** How many of a request's user-side blocks (prompts and tool results) hold `needle`. */
const blocksWith = (req: ScriptRequest, needle: string) => userTexts(req).filter((t) => t.includes(needle)).length;

/** The agent once its second run ended, or as soon as it went past it (a third run would be a second delivery). */
const secondRunEnded = (name: string) =>
  waitFor(`${name}'s second run to end`, async () => {
    const a = await agent(name);
    return a && (a.session > 2 || (a.session === 2 && a.status === "done")) ? a : undefined;
  }, 90_000);

/**
 * Every wake the daemon may still owe is decided once a later message woke another agent: events
 * are handled in order, and a wake is looked at once per burst (as tests/integration/messages.test.ts).
 */
async function settle(): Promise<void> {
  const sb = troupe.sb;
  await sb.json(["spawn", "--no-worktree", "--name", "probe", "--command", "troupe signal done --result probed", "--json"]);
  await waitFor("probe done", async () => (await agent("probe"))?.status === "done");
  await sb.run(["send", "probe", "ping"]);
  await waitFor("probe woken", async () => {
    const a = await agent("probe");
    return a?.status === "done" && a.session === 2;
  });
}

describe("troupe's MCP tools in the real Claude Code", () => {
  test("a supervisor's mcp__troupe__handoff returns its worker's result in the same turn", async () => {
    const sb = sandbox();
    let handed: { text: string; isError: boolean } | undefined;
    scripts.set("boss", (req) => {
      if (turnIndex(req) === 0) return [toolUse("mcp__troupe__handoff", { provider: "claude", name: "helper", message: "Count the files.", worktree: false, timeoutSeconds: 120 })];
      handed ??= lastToolResult(req);
      // the fake API joins the result's blocks: the text, then the worker as JSON
      const result = handed?.text.match(/Its result:\n\n([^{\n]*)/)?.[1] ?? `no result: ${handed?.text}`;
      return turnIndex(req) === 1 ? [bash(`troupe signal done --result "boss got: ${result}"`)] : [text("Done.")];
    });
    scripts.set("helper", (req) => [[bash(`troupe signal done --result "3 files"`)]][turnIndex(req)] ?? [text("Done.")]);

    await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--prompt", "Hand the counting to a worker.", "--no-worktree", "--json"]);
    const boss = await ended("boss", 90_000);
    expect(handed?.isError).toBe(false);
    expect(boss).toMatchObject({ status: "done", result: "boss got: 3 files" });
    expect(await agent("helper")).toMatchObject({ status: "done", result: "3 files", parentId: boss.id, provider: "claude" });
  }, 120_000);

  // Claude Code asks before an MCP tool or a Bash command in edits, and a headless run cannot answer: troupe's own are allowed
  test("a supervisor with edits permissions may call troupe's tools (handoff)", async () => {
    const sb = sandbox();
    // no allowed tools of the person's: troupe's own, its signal included, are allowed by troupe
    let handed: { text: string; isError: boolean } | undefined;
    scripts.set("boss", (req) => {
      if (turnIndex(req) === 0) return [toolUse("mcp__troupe__handoff", { provider: "claude", name: "helper", message: "Count the files.", worktree: false, timeoutSeconds: 120 })];
      handed ??= lastToolResult(req);
      return turnIndex(req) === 1 ? [bash(`troupe signal done --result "boss got it"`)] : [text("Done.")];
    });
    scripts.set("helper", (req) => [[bash(`troupe signal done --result "3 files"`)]][turnIndex(req)] ?? [text("Done.")]);

    await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--permissions", "edits", "--prompt", "Hand the counting to a worker.", "--no-worktree", "--json"]);
    const boss = await ended("boss", 90_000);
    expect(handed).toMatchObject({ isError: false, text: expect.stringContaining("Its result:\n\n3 files") });
    expect(await agent("helper")).toMatchObject({ status: "done", result: "3 files", parentId: boss.id });
    expect(boss).toMatchObject({ status: "done", result: "boss got it" });
  }, 120_000);

  // plan mode changes nothing: troupe's tools that only read (readOnlyHint) are callable, one that starts an agent is refused in one line
  test("a supervisor in plan mode reads agents and its inbox, its handoff is refused in one line, and it ends its run", async () => {
    const sb = sandbox();
    const results: { text: string; isError: boolean }[] = [];
    scripts.set("boss", (req) => {
      const step = turnIndex(req);
      if (step > 0) results[step - 1] ??= lastToolResult(req)!;
      const turns = [
        [toolUse("mcp__troupe__list_agents", {})],
        [toolUse("mcp__troupe__read_inbox", {})],
        [toolUse("mcp__troupe__handoff", { provider: "claude", name: "helper", message: "Count the files.", worktree: false, timeoutSeconds: 120 })],
        [bash(`troupe signal done --result "planned"`)],
      ];
      return turns[step] ?? [text("Done.")];
    });
    scripts.set("helper", () => [bash(`troupe signal done --result "3 files"`)]);

    await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--permissions", "plan", "--prompt", "Plan the counting.", "--no-worktree", "--json"]);
    const boss = await ended("boss", 90_000);
    const [listed, inbox, handed] = results;
    expect(listed?.isError).toBe(false);
    expect((JSON.parse(listed!.text) as { name: string }[]).map((a) => a.name)).toEqual(["boss"]);
    expect(inbox).toEqual({ isError: false, text: "[]" });
    // refused before any agent starts: by the CLI itself, or else by the daemon; one line naming plan mode
    expect(handed?.isError).toBe(true);
    expect(handed?.text).toMatch(/^[^\n]*plan mode[^\n]*$/);
    expect(await agent("helper")).toBeUndefined();
    expect(boss).toMatchObject({ status: "done", result: "planned" });
  }, 120_000);

  test("assign + send_message: the worker is told who assigned it, reports to its supervisor, and the supervisor's wait_for_message gets it once", async () => {
    const sb = sandbox();
    const report = "helper report: 3 files counted";
    let got: { text: string; isError: boolean } | undefined;
    scripts.set("boss", (req) => {
      const step = turnIndex(req);
      if (findInHistory(req, /wrap up now/)) return [[bash(`troupe signal done --result wrapped`)]][step] ?? [text("Wrapped.")];
      if (step === 0) return [toolUse("mcp__troupe__assign", { provider: "claude", name: "helper", message: "Count the files.", worktree: false })];
      if (step === 1) return [toolUse("mcp__troupe__wait_for_message", { timeoutSeconds: 120 })];
      if (step === 2) {
        got = lastToolResult(req);
        return [bash(`troupe signal done --result "boss heard back"`)];
      }
      return [text("Done.")];
    });
    scripts.set("helper", (req) => {
      const step = turnIndex(req);
      if (step === 0) return [toolUse("mcp__troupe__send_message", { to: "supervisor", text: report })];
      if (step === 1) return [bash(`troupe signal done --result reported`)];
      return [text("Done.")];
    });

    await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--prompt", "Assign the counting to a worker and wait for its report.", "--no-worktree", "--json"]);
    const boss = await ended("boss", 90_000);
    const helper = await ended("helper");
    expect(boss).toMatchObject({ status: "done", result: "boss heard back", session: 1 });
    expect(helper).toMatchObject({ status: "done", result: "reported", parentId: boss.id });
    // the worker's prompt named its supervisor and how to report
    expect(findInHistory(requestsOf("helper")[0]!, /assigned to you by the agent boss \((\w+)\)/)?.[1]).toBe(boss.id);
    // the supervisor got the report with the sender's identity, from the daemon, not the text
    expect(got?.isError).toBe(false);
    const messages = JSON.parse(got!.text) as { from: string; fromId: string; to: string; text: string }[];
    expect(messages).toEqual([expect.objectContaining({ from: "helper", fromId: helper.id, to: "boss", text: report })]);

    // read through the inbox, so not delivered again: the person's message resumes the supervisor,
    // and that run's prompt carries only the person's message; the session holds the report once
    expect((await sb.run(["send", "boss", "wrap up now"])).code).toBe(0);
    expect(await secondRunEnded("boss")).toMatchObject({ session: 2, status: "done", result: "wrapped" });
    const last = requestsOf("boss").at(-1)!;
    expect(blocksWith(last, "wrap up now")).toBe(1);
    expect(blocksWith(last, report)).toBe(1);
  }, 150_000);

  test("a message to a running agent is delivered once, into that run (a user turn), never through a tool result, and no run follows for it", async () => {
    const sb = sandbox();
    const note = "also check the tests folder";
    let release!: () => void;
    const sent = new Promise<void>((r) => (release = r));
    const told = (req: ScriptRequest) => JSON.stringify(req.messages).includes(note);
    scripts.set("busy", async (req) => {
      if (told(req)) return requestsOf("busy").filter(told).length === 1 ? [bash(`troupe signal done --result "read the note"`)] : [text("Done.")];
      // the first turn is held until the message is sent, so the run is under way then
      if (turnIndex(req) === 0) await sent;
      return turnIndex(req) === 0 ? [bash("sleep 2")] : [text("Nothing yet.")];
    });

    await sb.json(["spawn", "--provider", "claude", "--name", "busy", "--prompt", "Look around.", "--no-worktree", "--json"]);
    await waitFor("busy's first request", () => requestsOf("busy").length > 0 || undefined, 60_000);
    expect((await agent("busy"))?.status).toBe("running");
    expect((await sb.run(["send", "busy", note])).code).toBe(0);
    release();

    expect(await troupe.ended("busy", 90_000)).toMatchObject({ session: 1, status: "done", result: "read the note" });
    await settle();
    expect(await agent("busy")).toMatchObject({ status: "done", session: 1 });

    // the run's history holds it once, signed by the person, never as a tool result (the inbox)
    // (Claude Code folds a message taken mid-turn in as a `system` message: counted in the whole history)
    const last = JSON.stringify(requestsOf("busy").at(-1)!.messages);
    expect(last.split(note).length - 1).toBe(1);
    expect(last).toContain("from the person (user)");
    expect(requestsOf("busy").some((r) => r.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result" && JSON.stringify(b).includes(note))))).toBe(false);
  }, 150_000);
});
