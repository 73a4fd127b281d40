import { describe, expect, test } from "bun:test";
import { codex } from "../../providers/codex.ts";
import { baseInput, fixtureCases, loadFixture, ofKind } from "./fixture-helpers.ts";

const CASES = fixtureCases("codex");
const KNOWN_SILENT = ["turn.started", "item.started", "item.updated"];

describe("codex parseLine over every recorded fixture", () => {
  test("the fixtures are there", () => {
    expect(CASES).toEqual(
      expect.arrayContaining(["success", "resume", "auth-401", "quota-429", "offline-no-login", "offline-api-key", "not-git"]),
    );
  });

  test("only events codex is known to send before their end give nothing", () => {
    for (const name of CASES) {
      for (const line of loadFixture(codex, name).stdout) {
        if (codex.parseLine(line, "stdout").length === 0) expect(KNOWN_SILENT).toContain(JSON.parse(line).type);
      }
    }
  });

  test("stderr lines are kept raw", () => {
    const f = loadFixture(codex, "offline-no-login");
    for (const line of f.stderr) expect(codex.parseLine(line, "stderr")).toEqual([{ kind: "raw", line }]);
  });
});

describe("codex success and resume", () => {
  const success = loadFixture(codex, "success");

  test("session id, tool use and result, text, usage", () => {
    const [session] = ofKind(success.events, "session");
    expect(session?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const [use] = ofKind(success.events, "tool_use");
    expect(use).toMatchObject({ name: "shell", id: "item_0" });
    expect(use?.input).toContain("echo hello from the tool");
    expect(ofKind(success.events, "tool_result")).toEqual([
      { kind: "tool_result", id: "item_0", output: "hello from the tool\n", isError: false },
    ]);
    expect(ofKind(success.events, "text").map((t) => t.text)).toEqual(["The command printed: hello from the tool. Done."]);
    const [result] = ofKind(success.events, "result");
    expect(result).toMatchObject({ isError: false, inputTokens: 2400, outputTokens: 48 });
    expect(ofKind(success.events, "raw").length).toBe(success.stderr.length);
  });

  test("resume continues the same thread in the sandbox it was asked for", () => {
    const resume = loadFixture(codex, "resume");
    expect(ofKind(resume.events, "session")[0]?.sessionId).toBe(ofKind(success.events, "session")[0]!.sessionId);
    expect(resume.meta.argv).toContain(ofKind(success.events, "session")[0]!.sessionId);
    expect(resume.meta.fakeServerRequests?.[0]).toContain("sandbox_mode=read-only");
    expect(ofKind(resume.events, "text").length).toBe(1);
    expect(ofKind(resume.events, "result")[0]?.isError).toBe(false);
  });
});

describe("codex errors", () => {
  test("401: error event, failed result", () => {
    const f = loadFixture(codex, "auth-401");
    expect(ofKind(f.events, "error")[0]?.message).toContain("401 Unauthorized");
    expect(ofKind(f.events, "result")).toEqual([expect.objectContaining({ isError: true })]);
    expect(f.meta.exitCode).toBe(1);
  });

  test("429 insufficient_quota", () => {
    const f = loadFixture(codex, "quota-429");
    expect(ofKind(f.events, "result")[0]?.text).toContain("Quota exceeded");
  });

  for (const name of ["offline-no-login", "offline-api-key"]) {
    test(`${name}: reconnect errors, no result (codex waits forever)`, () => {
      const f = loadFixture(codex, name);
      expect(ofKind(f.events, "error").some((e) => e.message.includes("Reconnecting"))).toBe(true);
      expect(ofKind(f.events, "result")).toEqual([]);
      expect(f.meta.killedAtDeadlineMs).toBeGreaterThan(0);
    });
  }

  test("not-git: nothing on stdout, the reason on stderr, not a retryable class", () => {
    const f = loadFixture(codex, "not-git");
    expect(f.stdout).toEqual([]);
    expect(f.stderr.join("\n")).toContain("--skip-git-repo-check was not specified");
  });
});

describe("codex parser edge cases", () => {
  test("unknown events become raw", () => {
    for (const line of ['{"type":"something.new"}', '{"type":"item.completed"}', '{"type":"item.completed","item":{"type":"future"}}']) {
      expect(codex.parseLine(line, "stdout")).toEqual([{ kind: "raw", line }]);
    }
  });

  test("failed command, file change, mcp tool call, todo list, turn.failed", () => {
    const p = (o: unknown) => codex.parseLine(JSON.stringify(o), "stdout");
    expect(p({ type: "item.completed", item: { id: "i1", type: "command_execution", command: "false", aggregated_output: "", exit_code: 1, status: "failed" } })).toEqual([
      { kind: "tool_result", id: "i1", output: "", isError: true },
    ]);
    expect(p({ type: "item.completed", item: { id: "i2", type: "file_change", changes: [{ path: "a.ts", kind: "update" }, { path: "b.ts", kind: "add" }], status: "completed" } })).toEqual([
      { kind: "tool_use", id: "i2", name: "apply_patch", input: "update a.ts\nadd b.ts" },
      { kind: "tool_result", id: "i2", output: "completed", isError: false },
    ]);
    expect(p({ type: "item.started", item: { id: "i3", type: "mcp_tool_call", server: "troupe", tool: "ask", arguments: { q: "hi" }, status: "in_progress" } })).toEqual([
      { kind: "tool_use", id: "i3", name: "troupe.ask", input: '{"q":"hi"}' },
    ]);
    expect(p({ type: "item.completed", item: { id: "i3", type: "mcp_tool_call", server: "troupe", tool: "ask", error: { message: "boom" }, status: "failed" } })).toEqual([
      { kind: "tool_result", id: "i3", output: "boom", isError: true },
    ]);
    expect(p({ type: "item.updated", item: { id: "i4", type: "todo_list", items: [{ text: "a", completed: true }, { text: "b", completed: false }] } })).toEqual([
      { kind: "text", text: "[x] a\n[ ] b" },
    ]);
    expect(p({ type: "turn.failed", error: { message: "bad" } })).toEqual([
      { kind: "error", message: "bad" },
      { kind: "result", isError: true, text: "bad" },
    ]);
  });
});

describe("codex commands", () => {
  test("spawn: exec --json, git check skipped, permissions, model, prompt after --", () => {
    expect(codex.buildSpawn({ ...baseInput, permissions: "skip" }).argv).toEqual([
      "codex", "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--", "fix the bug",
    ]);
    expect(codex.buildSpawn({ ...baseInput, permissions: "edits", model: "gpt-5.5" }).argv).toEqual([
      "codex", "exec", "--json", "--skip-git-repo-check", "-c", 'sandbox_mode="workspace-write"', "-c", "sandbox_workspace_write.network_access=true", "--model", "gpt-5.5", "--", "fix the bug",
    ]);
    // read-only, with network: a permission profile (the legacy read-only sandbox has none, and troupe's socket is refused)
    expect(codex.buildSpawn({ ...baseInput, permissions: "plan", prompt: "-n" }).argv.slice(-8)).toEqual(["-c", 'default_permissions="troupe_read_only"', "-c", 'permissions.troupe_read_only.extends=":read-only"', "-c", "permissions.troupe_read_only.network.enabled=true", "--", "-n"]);
  });

  test("resume: exec-level flags, then resume -- ID PROMPT", () => {
    expect(codex.buildResume!({ ...baseInput, permissions: "plan", sessionId: "abc" }).argv).toEqual([
      "codex", "exec", "--json", "--skip-git-repo-check", "-c", 'default_permissions="troupe_read_only"', "-c", 'permissions.troupe_read_only.extends=":read-only"', "-c", "permissions.troupe_read_only.network.enabled=true", "resume", "--", "abc", "fix the bug",
    ]);
  });

  test("a long prompt goes on stdin: - in place of the prompt, on spawn and resume", () => {
    const prompt = "p".repeat(200 * 1024);
    const spawn = codex.buildSpawn({ ...baseInput, permissions: "skip", prompt });
    expect(spawn.argv.slice(-2)).toEqual(["--", "-"]);
    expect(spawn.stdin).toBe(prompt);
    const resume = codex.buildResume!({ ...baseInput, permissions: "skip", prompt, sessionId: "abc" });
    expect(resume.argv.slice(-4)).toEqual(["resume", "--", "abc", "-"]);
    expect(resume.stdin).toBe(prompt);
  });

  test("the success fixture ran exactly the built command", () => {
    const f = loadFixture(codex, "success");
    const built = codex.buildSpawn({ ...baseInput, prompt: f.meta.argv.at(-1)!, permissions: "skip" }).argv;
    expect(f.meta.argv.slice(1)).toEqual(built.slice(1));
  });

  test("account variable", () => {
    expect(codex.accountEnv).toBe("CODEX_HOME");
  });
});
