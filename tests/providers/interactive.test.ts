import { expect, test } from "bun:test";
import { getProvider } from "../../providers/index.ts";

const input = { sessionId: "s-1", cwd: "/w/t", env: { HOME: "/home/p" } };

test("each CLI's interactive mode resumes the same session; the others have none", () => {
  expect(getProvider("claude")!.interactive!(input).argv).toEqual(["claude", "--resume", "s-1"]);
  expect(getProvider("claude")!.interactive!({ ...input, model: "opus" }).argv).toEqual(["claude", "--model", "opus", "--resume", "s-1"]);
  expect(getProvider("codex")!.interactive!(input).argv).toEqual(["codex", "resume", "s-1"]);
  expect(getProvider("gemini")!.interactive!(input).argv).toEqual(["gemini", "--resume", "s-1"]);
  expect(getProvider("generic")!.interactive!({ ...input, command: "make chat" })).toEqual({ argv: ["sh", "-c", "make chat"], env: { TROUPE_ATTACHED: "1" } });
  expect(getProvider("copilot")!.interactive!(input).argv).toEqual(["copilot", "--resume=s-1"]);
  expect(getProvider("opencode")!.interactive!(input).argv).toEqual(["opencode", "--session", "s-1"]);
  expect(getProvider("kilo")!.interactive!({ ...input, model: "fake/m" }).argv).toEqual(["kilo", "--model", "fake/m", "--session", "s-1"]);
  expect(getProvider("qwen")!.interactive!(input).argv).toEqual(["qwen", "--resume", "s-1"]);
  expect(getProvider("pi")!.interactive!(input).argv).toEqual(["pi", "--session", "s-1"]);
  expect(getProvider("aider")!.interactive).toBeUndefined();
  // Cline resumes only in its own UI, by a session id its headless output never names
  expect(getProvider("cline")!.interactive).toBeUndefined();
});

test("Claude's transcript of a session is under its config folder, by folder and session", () => {
  const t = getProvider("claude")!.transcript!;
  expect(t(input)).toBe("/home/p/.claude/projects/-w-t/s-1.jsonl");
  expect(t({ ...input, env: { CLAUDE_CONFIG_DIR: "/acct/c1" } })).toBe("/acct/c1/projects/-w-t/s-1.jsonl");
});
