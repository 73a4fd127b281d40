import { describe, expect, test } from "bun:test";
import { AIDER_CHAT_HISTORY, aider } from "../../providers/aider.ts";
import { baseInput, failureOf } from "./fixture-helpers.ts";

// Aider is not installed here: these lines follow its documented `--no-pretty` output.
const DOCUMENTED = [
  "Aider v0.86.1",
  "Main model: anthropic/claude-sonnet-4 with diff edit format",
  "Git repo: .git with 12 files",
  "Repo-map: using 4096 tokens, auto refresh",
  "",
  "I'll fix the off-by-one in src/range.ts.",
  "Applied edit to src/range.ts",
  "Commit 1a2b3c4 fix: off-by-one in range",
];

describe("aider parseLine", () => {
  test("every stdout line is text, the banner also marks the session", () => {
    const events = DOCUMENTED.flatMap((l) => aider.parseLine(l, "stdout"));
    expect(events.filter((e) => e.kind === "text")).toHaveLength(DOCUMENTED.length);
    expect(events.filter((e) => e.kind === "session")).toEqual([{ kind: "session", sessionId: AIDER_CHAT_HISTORY }]);
    expect(aider.parseLine("  Aider v0.1 is not a banner when indented", "stdout")).toHaveLength(1);
  });

  test("stderr lines stay raw", () => {
    expect(aider.parseLine("Traceback (most recent call last):", "stderr")).toEqual([{ kind: "raw", line: "Traceback (most recent call last):" }]);
  });

  test("error patterns, as diagnose() applies them to stderr (litellm's exception names)", () => {
    expect(failureOf(aider, "litellm.AuthenticationError: AnthropicException - invalid x-api-key")).toBe("auth");
    expect(failureOf(aider, "litellm.RateLimitError: RateLimitError: OpenAIException - You exceeded your current quota")).toBe("usage_limit");
    expect(failureOf(aider, "litellm.APIConnectionError: Connection error.")).toBe("network");
    expect(failureOf(aider, "litellm.Timeout: Connection timed out after 600 seconds")).toBe("timeout");
    expect(failureOf(aider, "Traceback (most recent call last):")).toBe("crash");
    expect(failureOf(aider, "Applied edit to src/range.ts")).toBeUndefined();
  });
});

describe("aider commands", () => {
  test("spawn: one message, yes to everything, plain output, history kept under .troupe/", () => {
    const argv = aider.buildSpawn({ ...baseInput, permissions: "skip", model: "sonnet" }).argv;
    expect(argv[0]).toBe("aider");
    expect(argv).toContain("--message=fix the bug");
    expect(argv).toContain("--yes-always");
    expect(argv).toContain("--no-pretty");
    expect(argv).toContain("--no-gitignore");
    expect(argv.slice(argv.indexOf("--chat-history-file"), argv.indexOf("--chat-history-file") + 2)).toEqual(["--chat-history-file", AIDER_CHAT_HISTORY]);
    expect(argv.slice(-2)).toEqual(["--model", "sonnet"]);
    expect(argv).not.toContain("--restore-chat-history");
  });

  test("permissions: edits never runs suggested shell commands, plan only answers", () => {
    expect(aider.buildSpawn({ ...baseInput, permissions: "edits" }).argv).toContain("--no-suggest-shell-commands");
    const plan = aider.buildSpawn({ ...baseInput, permissions: "plan" }).argv;
    expect(plan.slice(plan.indexOf("--chat-mode"), plan.indexOf("--chat-mode") + 2)).toEqual(["--chat-mode", "ask"]);
  });

  test("resume restores the chat history the session id names", () => {
    const argv = aider.buildResume!({ ...baseInput, permissions: "skip", sessionId: AIDER_CHAT_HISTORY }).argv;
    expect(argv).toContain("--restore-chat-history");
    expect(argv).toContain("--message=fix the bug");
    expect(argv.slice(argv.indexOf("--chat-history-file"), argv.indexOf("--chat-history-file") + 2)).toEqual(["--chat-history-file", AIDER_CHAT_HISTORY]);
  });

  test("a long prompt goes on stdin, read as the message file", () => {
    const prompt = "p".repeat(200 * 1024);
    const cmd = aider.buildSpawn({ ...baseInput, permissions: "skip", prompt });
    expect(cmd.argv.slice(0, 2)).toEqual(["aider", "--message-file=/dev/stdin"]);
    expect(cmd.stdin).toBe(prompt);
  });

  test("no account variable", () => {
    expect(aider.accountEnv).toBeNull();
  });
});
