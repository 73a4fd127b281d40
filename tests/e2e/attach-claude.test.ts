/**
 * `troupe attach` with the real Claude Code CLI, interactive, offline: a scripted Messages API
 * plays the model. The agent's headless run ends done; attach resumes the same session in
 * Claude's own interactive UI in tmux, a prompt typed there reaches the model with the earlier
 * session's history, and when the person leaves the CLI the agent is back `done`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { bash, text, turnIndex, userTexts } from "../support/fake-anthropic.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const claude = useClaudeTroupe((req) => {
  const said = userTexts(req).join("\n");
  if (said.includes("ping from the person")) return [text("pong from the model")];
  return [[bash('troupe signal done --result "first run"')]][turnIndex(req)] ?? [text("All done.")];
});
const { server, home } = claude;
let sb: Sandbox;
let term: Terminal | null = null;

afterEach(() => {
  term?.close();
  term = null;
});

/** What an interactive first run asks once per user and folder, answered as a person would have. */
function prepareClaudeHome(folder: string): void {
  const file = join(home, ".claude.json");
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>;
  projects[folder] = { ...projects[folder], hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
  writeFileSync(
    file,
    JSON.stringify({ ...config, hasCompletedOnboarding: true, theme: "dark", projects, customApiKeyResponses: { approved: ["test"], rejected: [] }, bypassPermissionsModeAccepted: true }),
  );
}

describe.skipIf(!HAVE_TMUX)("troupe attach with Claude Code", () => {
  test("resumes the agent's session in Claude's interactive UI; the person's prompt reaches the model; leaving puts the agent back", async () => {
    sb = claude.sandbox();
    await sb.json(["spawn", "--provider", "claude", "--name", "cla", "--prompt", "Say hello.", "--json"]);
    const done = await waitFor("cla done", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "cla");
      return a && a.status === "done" ? a : undefined;
    }, 60_000);
    prepareClaudeHome(done.cwd);
    term = new Terminal(sb, 120, 36);
    term.type(`${BIN} attach cla`);
    term.keys("Enter");
    // Claude's own UI, ready for input (its footer: "? for shortcuts" in 2.1.197, the mode line
    // since), with the headless run's history (the tool call shown whole, or folded in 2.1.332)
    const ui = await term.waitFor(/\? for shortcuts|shift\+tab to cycle/, 30_000);
    expect(ui).toContain("Say hello.");
    expect(ui).toMatch(/Bash\(troupe signal done --result "first run"\)|Ran 1 shell command/);
    expect((await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "cla")!.status).toBe("attached");
    term.type("ping from the person");
    term.keys("Enter");
    await term.waitFor("pong from the model", 30_000);
    // the same session: the model got the headless run's history with the new prompt
    const last = server.mainRequests().at(-1)!;
    expect(JSON.stringify(last.messages)).toContain("first run");
    // the CLI's own way out: ctrl+c twice (the first only warns)
    term.keys("C-c");
    term.keys("C-c");
    const after = await term.waitFor("detached from cla: done", 30_000);
    // the daemon watched the CLI's pid (no complaint from the client)
    expect(after).not.toContain("troupe: ");
    // what the interactive session said is kept as its own session, from Claude's transcript
    const logs = await sb.run(["logs", "cla", "--session", "2"]);
    expect(logs.stdout).toContain("pong from the model");
    expect(logs.stdout).not.toContain("All done.");
  }, 150_000);
});
