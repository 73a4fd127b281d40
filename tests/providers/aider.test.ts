import { describe, expect, test } from "bun:test";
import { AIDER_CHAT_HISTORY, aider } from "../../providers/aider.ts";
import { baseInput } from "./fixture-helpers.ts";

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

  test("error patterns (litellm's exception names)", () => {
    const classify = (text: string) => aider.errorPatterns.find((p) => p.pattern.test(text))?.failure;
    expect(classify("litellm.AuthenticationError: AnthropicException - invalid x-api-key")).toBe("auth");
    expect(classify("litellm.RateLimitError: RateLimitError: OpenAIException - You exceeded your current quota")).toBe("usage_limit");
    expect(classify("litellm.APIConnectionError: Connection error.")).toBe("network");
    expect(classify("litellm.Timeout: Connection timed out after 600 seconds")).toBe("timeout");
    expect(classify("Traceback (most recent call last):")).toBe("crash");
    expect(classify("Applied edit to src/range.ts")).toBeUndefined();
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

  test("resume restores the chat history", () => {
    const argv = aider.buildResume!({ ...baseInput, permissions: "skip", sessionId: AIDER_CHAT_HISTORY }).argv;
    expect(argv).toContain("--restore-chat-history");
    expect(argv).toContain("--message=fix the bug");
  });

  test("no account variable", () => {
    expect(aider.accountEnv).toBeNull();
  });
});
