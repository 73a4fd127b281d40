import { describe, expect, test } from "bun:test";
import { gemini, geminiAllowedTools } from "../../providers/gemini.ts";
import { readInputLine } from "../../providers/acp/lines.ts";
import { withTroupeMcp } from "../../src/agents/start/mcp-config.ts";
import { baseInput, fixtureCases, loadFixture, ofKind } from "./fixture-helpers.ts";

const CASES = fixtureCases("gemini");

describe("gemini parseLine over every recorded fixture", () => {
  test("the fixtures are there", () => {
    expect(CASES).toEqual(
      expect.arrayContaining(["success", "resume", "auth-400", "quota-429", "no-auth", "offline", "untrusted"]),
    );
  });

  test("only the echoed user message gives nothing", () => {
    for (const name of CASES) {
      for (const line of loadFixture(gemini, name).stdout) {
        if (gemini.parseLine(line, "stdout").length === 0) expect(JSON.parse(line)).toMatchObject({ type: "message", role: "user" });
      }
    }
  });
});

describe("gemini success and resume", () => {
  const success = loadFixture(gemini, "success");

  test("session id, tool use and result, streamed text, usage", () => {
    const [session] = ofKind(success.events, "session");
    expect(session).toMatchObject({ model: "auto" });
    expect(session?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const [use] = ofKind(success.events, "tool_use");
    expect(use).toMatchObject({ name: "list_directory", input: '{"dir_path":"."}' });
    const [result] = ofKind(success.events, "tool_result");
    expect(result).toMatchObject({ id: use!.id, isError: false });
    const text = ofKind(success.events, "text");
    expect(text.map((t) => t.text).join("")).toBe("The folder holds README.md and nothing else. Done.");
    expect(text.every((t) => t.delta === true)).toBe(true);
    expect(ofKind(success.events, "result")).toEqual([{ kind: "result", isError: false, text: undefined, inputTokens: 2700, outputTokens: 60 }]);
  });

  test("resume keeps the session id it was given", () => {
    const resume = loadFixture(gemini, "resume");
    const id = ofKind(success.events, "session")[0]!.sessionId;
    expect(resume.meta.argv).toContain(id);
    expect(ofKind(resume.events, "session")[0]?.sessionId).toBe(id);
    expect(ofKind(resume.events, "result")[0]?.isError).toBe(false);
  });
});

describe("gemini errors", () => {
  test("400 API_KEY_INVALID: error result", () => {
    const f = loadFixture(gemini, "auth-400");
    expect(ofKind(f.events, "error")[0]?.message).toContain("API key not valid");
    expect(ofKind(f.events, "result")[0]).toMatchObject({ isError: true });
  });

  test("429 RESOURCE_EXHAUSTED", () => {
    const f = loadFixture(gemini, "quota-429");
    expect(ofKind(f.events, "result")[0]?.text).toContain("exceeded your current quota");
  });

  test("no auth method: message on stderr only", () => {
    const f = loadFixture(gemini, "no-auth");
    expect(f.stdout).toEqual([]);
    expect(f.meta.exitCode).toBe(41);
  });

  test("offline: gives up after its retries with an error result", () => {
    const f = loadFixture(gemini, "offline");
    expect(ofKind(f.events, "result")[0]?.text).toContain("fetch failed");
  });

  test("untrusted folder: exit 55, not a retryable class", () => {
    const f = loadFixture(gemini, "untrusted");
    expect(f.meta.exitCode).toBe(55);
    expect(f.stderr.join("\n")).toContain("--skip-trust");
  });
});

describe("gemini parser edge cases", () => {
  test("unknown and incomplete events become raw", () => {
    for (const line of ['{"type":"future"}', '{"type":"init"}', '{"type":"tool_use"}']) {
      expect(gemini.parseLine(line, "stdout")).toEqual([{ kind: "raw", line }]);
    }
  });

  test("a failed tool and a warning", () => {
    const p = (o: unknown) => gemini.parseLine(JSON.stringify(o), "stdout");
    expect(p({ type: "tool_result", tool_id: "t1", status: "error", error: { type: "x", message: "no such file" } })).toEqual([
      { kind: "tool_result", id: "t1", output: "no such file", isError: true },
    ]);
    expect(p({ type: "error", severity: "warning", message: "Loop detected, stopping execution" })).toEqual([
      { kind: "error", message: "Loop detected, stopping execution" },
    ]);
  });
});

describe("gemini commands (over ACP)", () => {
  test("spawn: gemini --acp with trust skipped; the mode is the runner's to set, per permission mode", () => {
    const skip = gemini.buildSpawn({ ...baseInput, permissions: "skip" });
    expect(skip.argv).toEqual(["gemini", "--acp", "--skip-trust"]);
    expect(skip.acp).toEqual({ permissions: "skip", mode: "yolo" });
    expect(gemini.buildSpawn({ ...baseInput, permissions: "edits", model: "gemini-2.5-pro" })).toMatchObject({
      argv: ["gemini", "--acp", "--skip-trust", "--model", "gemini-2.5-pro"],
      acp: { permissions: "edits", mode: "autoEdit" },
    });
    expect(gemini.buildSpawn({ ...baseInput, permissions: "plan" }).acp?.mode).toBe("plan");
    expect(gemini.buildSpawn({ ...baseInput, permissions: "ask" }).acp?.mode).toBe("default");
  });

  test("the prompt is the first line of the runner's stdin, whatever its length; its input folder is the runner's", () => {
    const prompt = `-${"p".repeat(200 * 1024)}`;
    const cmd = gemini.buildSpawn({ ...baseInput, permissions: "skip", prompt });
    expect(cmd.argv.join(" ")).not.toContain("ppp");
    expect(readInputLine(cmd.stdin!.trimEnd())).toEqual({ text: prompt });
    expect(cmd).toMatchObject({ stdinStream: true, ownInput: true });
  });

  test("resume: the same command, the session loaded by the runner (session/load)", () => {
    const cmd = gemini.buildResume!({ ...baseInput, permissions: "skip", sessionId: "abc" });
    expect(cmd.argv).toEqual(["gemini", "--acp", "--skip-trust"]);
    expect(cmd.acp).toEqual({ permissions: "skip", mode: "yolo", load: "abc" });
  });

  test("resume: loaded no sooner than the minute after the session began (0.61 cannot load it in that minute)", () => {
    expect(gemini.resumeReadsSessionAge).toBe(true);
    const at = (iso: string) => Date.parse(iso);
    const cmd = gemini.buildResume!({ ...baseInput, permissions: "skip", sessionId: "abc", sessionSeenAt: at("2026-12-01T23:54:52.849Z") });
    expect(cmd.acp).toEqual({ permissions: "skip", mode: "yolo", load: "abc", loadAfter: at("2026-12-01T23:55:00Z") });
    expect(gemini.buildResume!({ ...baseInput, permissions: "skip", sessionId: "abc", sessionSeenAt: at("2026-12-01T23:55:00Z") }).acp?.loadAfter).toBe(at("2026-12-01T23:56:00Z"));
    // under the runner: the flag after --load
    const { cmd: run } = withTroupeMcp(gemini, cmd, "/opt/troupe/troupe", "/ws/.troupe/input", "skip");
    expect(run.argv.slice(0, run.argv.indexOf("--"))).toEqual(["/opt/troupe/troupe", "acp-run", "--permissions", "skip", "--troupe", "/opt/troupe/troupe", "--mode", "yolo", "--load", "abc", "--load-after", String(at("2026-12-01T23:55:00Z"))]);
  });

  test("its settings file turns the CLI's session cleanup off (0.61 would delete a loaded session at its next start)", () => {
    const inj = gemini.mcp!({ command: "/opt/troupe/troupe", args: ["mcp"], envNames: ["TROUPE_AGENT_TOKEN"], toolTimeoutMs: 600_000, inputDir: "/ws/.troupe/input", permissions: "skip" });
    expect(inj.env).toEqual({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: "/ws/.troupe/input/gemini-settings.json" });
    const settings = JSON.parse(inj.files!["/ws/.troupe/input/gemini-settings.json"]!);
    expect(settings.general).toEqual({ sessionRetention: { enabled: false } });
    expect(settings.mcpServers.troupe).toMatchObject({ command: "/opt/troupe/troupe", args: ["mcp"], trust: true });
  });

  test("account variable", () => {
    expect(gemini.accountEnv).toBe("GEMINI_CLI_HOME");
  });
});

describe("allow rules as --allowed-tools", () => {
  test("a whole tool and a Bash command prefix pass; a bare `*` (one simple command) and file patterns say nothing wider", () => {
    expect(geminiAllowedTools(["Read", "Bash(npm test*)", "Bash(*)", "Edit(src/**)", "Bash(git * log)"])).toEqual(["read_file", "run_shell_command(npm test)"]);
  });
});
