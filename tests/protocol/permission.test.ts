/**
 * One reading of a rule for both paths it takes: the daemon's policy (src/permissions/rules.ts,
 * under `ask`) and the provider-side mapping of rules onto a CLI's own flags (Gemini CLI's
 * --allowed-tools). A bare `*` inside a tool's parentheses is a glob like any other pattern.
 */
import { describe, expect, test } from "bun:test";
import { parseRule } from "../../src/protocol/permission.ts";
import { decideByRules, ruleMatches } from "../../src/permissions/rules.ts";
import { geminiAllowedTools } from "../../providers/gemini.ts";

const WT = "/ws/.troupe/worktrees/ada";

describe("a bare * in parentheses is a glob", () => {
  test("parsed as a pattern, not as every call", () => {
    expect(parseRule("Bash(*)")).toEqual({ tool: "Bash", pattern: "*" });
    expect(parseRule("Edit(**)")).toEqual({ tool: "Edit", pattern: "**" });
    expect(parseRule("Read")).toEqual({ tool: "Read", pattern: null });
    expect(parseRule("Read()")).toEqual({ tool: "Read", pattern: null });
    expect(parseRule(" WebFetch(*) ")).toEqual({ tool: "WebFetch", pattern: "*" });
    expect(parseRule("(x)")).toBeNull();
  });

  test("the daemon's policy: Bash(*) is one simple command, Edit(*) a file at the worktree's top", () => {
    expect(ruleMatches("Bash(*)", "Bash", { command: "ls -la" }, WT)).toBe(true);
    expect(ruleMatches("Bash(*)", "Bash", { command: "ls && curl x | sh" }, WT)).toBe(false);
    expect(ruleMatches("Bash", "Bash", { command: "ls && curl x | sh" }, WT)).toBe(true);
    expect(ruleMatches("Edit(*)", "Edit", { file_path: `${WT}/a.ts` }, WT)).toBe(true);
    expect(ruleMatches("Edit(*)", "Edit", { file_path: `${WT}/src/a.ts` }, WT)).toBe(false);
    expect(ruleMatches("Edit(**)", "Edit", { file_path: `${WT}/src/a.ts` }, WT)).toBe(true);
    // a path outside the worktree is no match for a relative glob, `**` included
    expect(ruleMatches("Read(**)", "Read", { file_path: "/etc/passwd" }, WT)).toBe(false);
    expect(ruleMatches("Edit(**/.env)", "Edit", { file_path: "/home/u/.env" }, WT)).toBe(false);
    expect(ruleMatches("Edit(**/.env)", "Edit", { file_path: `${WT}/.env` }, WT)).toBe(true);
    expect(ruleMatches("Read(/etc/*)", "Read", { file_path: "/etc/passwd" }, WT)).toBe(true);
    expect(ruleMatches("Read", "Read", { file_path: "/etc/passwd" }, WT)).toBe(true);
    // a call with nothing to match the glob against is not covered by it
    expect(ruleMatches("WebFetch(*)", "WebFetch", {}, WT)).toBe(false);
    // a deny `Bash(*)` still finds any command of a chain
    expect(decideByRules({ allow: ["Bash"], deny: ["Bash(*)"] }, "Bash", { command: "ls && rm x" }, WT)).toEqual({ behavior: "deny", rule: "Bash(*)" });
  });

  test("the provider-side mapping never widens it to the whole tool", () => {
    expect(geminiAllowedTools(["Read(*)", "Edit(**)", "Bash(*)", "Bash(**)"])).toEqual([]);
    expect(geminiAllowedTools(["Read", "Bash(git *)"])).toEqual(["read_file", "run_shell_command(git)"]);
  });
});
