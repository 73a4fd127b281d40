import { describe, expect, test } from "bun:test";
import { kilo } from "../../providers/kilo.ts";
import { opencode } from "../../providers/opencode.ts";
import { baseInput, failureOf, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("opencode and Kilo over their recorded runs", () => {
  for (const p of [opencode, kilo]) {
    test(`${p.name}: session, the tool call with its result, the answer, a result per model call with its tokens`, () => {
      expectRecordedLoop(p);
      const results = ofKind(loadFixture(p, "success").events, "result");
      // one step ends in the tool call, the next in the answer: both spent tokens
      expect(results).toHaveLength(2);
      for (const r of results) expect(r.inputTokens).toBeGreaterThan(0);
    });

    test(`${p.name}: plan mode runs no shell command (the recorded resume is in plan mode)`, () => {
      const events = loadFixture(p, "resume").events;
      if (p === opencode) {
        // opencode's plan agent offers the shell: troupe's rule denies the call outright (run cannot ask)
        const [denied] = ofKind(events, "tool_result");
        expect(denied).toMatchObject({ isError: true });
        expect(denied?.output).toContain("prevents you from using this specific tool call");
      } else {
        // Kilo's plan agent does not offer one at all
        expect(ofKind(events, "tool_use")).toEqual([]);
        expect(ofKind(events, "text")[0]?.text).toContain("no shell tool among");
      }
    });

    test(`${p.name}: a 401 from the API is auth, by its status`, () => {
      const errors = ofKind(loadFixture(p, "auth-401").events, "error");
      expect(errors.at(-1)).toMatchObject({ failure: "auth" });
    });
  }

  test("error patterns, as diagnose() applies them to its ERROR log lines on stderr", () => {
    expect(failureOf(opencode, 'level=ERROR message="stream error" error.error="AI_APICallError: You exceeded your current quota, please check your plan and billing details."')).toBe("usage_limit");
    expect(failureOf(opencode, 'level=ERROR message="stream error" error.error="AI_APICallError: Cannot connect to API: Unable to connect. Is the computer able to access the url?"')).toBe("network");
    // offline, every start says models.dev is out of reach: no reason for a failure on its own
    expect(failureOf(opencode, 'level=ERROR message="Failed to fetch models.dev" cause="Unable to connect. Is the computer able to access the url?"')).toBeUndefined();
    expect(failureOf(opencode, "Only README.md.")).toBeUndefined();
  });
});

describe("opencode commands (over ACP)", () => {
  const config = (cmd: { env?: Record<string, string> }, key = "OPENCODE_CONFIG_CONTENT") => JSON.parse(cmd.env![key]!) as { permission: unknown; model?: string };

  test("spawn: `opencode acp` with its error log on stderr, the prompt as the runner's first input line, permissions and model through the config variable", () => {
    const skip = opencode.buildSpawn({ ...baseInput, permissions: "skip", model: "anthropic/claude-sonnet-4" });
    expect(skip.argv).toEqual(["opencode", "acp", "--print-logs", "--log-level", "ERROR"]);
    expect(skip.stdin).toBe('{"text":"fix the bug"}\n');
    expect(skip.acp).toMatchObject({ permissions: "skip", mode: "build" });
    expect(config(skip)).toEqual({ permission: "allow", model: "anthropic/claude-sonnet-4" });
  });

  test("ask: every edit, shell command and fetch asks (the runner asks troupe), in the build mode", () => {
    const ask = opencode.buildSpawn({ ...baseInput, permissions: "ask" });
    expect(ask.acp).toMatchObject({ permissions: "ask", mode: "build" });
    expect(config(ask).permission).toEqual({ edit: "ask", bash: "ask", webfetch: "ask" });
  });

  test("edits: edits allowed, other commands ask (decided by the runner's rules), the agent's own troupe commands allowed", () => {
    const perm = config(opencode.buildSpawn({ ...baseInput, permissions: "edits" })).permission as { edit: string; bash: Record<string, string> };
    expect(perm.edit).toBe("allow");
    expect(perm.bash).toMatchObject({ "*": "ask", "troupe signal": "allow", "troupe signal *": "allow", "troupe ask *": "allow" });
    expect(Object.keys(perm.bash).some((k) => k.startsWith("troupe spawn"))).toBe(false);
  });

  test("plan: the plan mode, every command denied but the agent's own", () => {
    const plan = opencode.buildSpawn({ ...baseInput, permissions: "plan" });
    expect(plan.acp?.mode).toBe("plan");
    expect(config(plan).permission).toMatchObject({ edit: "deny", bash: { "*": "deny", "troupe signal *": "allow" } });
  });

  test("resume: session/load of its session; Kilo is the same CLI under its own names", () => {
    const cmd = opencode.buildResume!({ ...baseInput, permissions: "skip", sessionId: "ses_1" });
    expect(cmd.acp?.load).toBe("ses_1");
    const k = kilo.buildResume!({ ...baseInput, permissions: "skip", sessionId: "ses_1" });
    expect(k.argv.slice(0, 2)).toEqual(["kilo", "acp"]);
    expect(config(k, "KILO_CONFIG_CONTENT")).toEqual({ permission: "allow" });
  });
});
