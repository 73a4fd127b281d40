import { describe, expect, test } from "bun:test";
import { decideByRules, kindOf, ownCommandRules, ruleMatches, suggestRule } from "../../src/permissions/rules.ts";
import { parseRule } from "../../src/protocol/permission.ts";

const WT = "/ws/.troupe/worktrees/ada";

// rule, tool, input, matches?
const MATCHES: [string, string, Record<string, unknown>, boolean][] = [
  ["Bash", "Bash", { command: "rm -rf /" }, true],
  ["Bash(npm test*)", "Bash", { command: "npm test" }, true],
  ["Bash(npm test*)", "Bash", { command: "npm test -- tests/a.test.ts" }, true],
  ["Bash(npm test*)", "Bash", { command: "npm install" }, false],
  ["Bash(npm test*)", "Bash", { command: "xnpm test" }, false],
  // `*` crosses `/` in a command (a command is no path)
  ["Bash(git *)", "Bash", { command: "git log src/a.ts" }, true],
  ["Bash(git status)", "Bash", { command: "git status" }, true],
  ["Bash(git status)", "Bash", { command: "git status; rm -rf /" }, false],
  // regex characters in a command are plain text
  ["Bash(echo (a).b)", "Bash", { command: "echo (a).b" }, true],
  ["Bash(echo (a).b)", "Bash", { command: "echo (a)xb" }, false],
  ["Bash(npm test*)", "Edit", { file_path: `${WT}/npm test` }, false],
  ["Edit(src/**)", "Edit", { file_path: `${WT}/src/a.ts` }, true],
  ["Edit(src/**)", "Edit", { file_path: `${WT}/src/deep/er/b.ts` }, true],
  ["Edit(src/**)", "Edit", { file_path: `${WT}/test/a.ts` }, false],
  ["Edit(src/*)", "Edit", { file_path: `${WT}/src/deep/b.ts` }, false],
  ["Edit(src/**)", "Edit", { file_path: "src/rel.ts" }, true],
  // outside the worktree a relative pattern never matches
  ["Edit(src/**)", "Edit", { file_path: "/ws/src/a.ts" }, false],
  ["Edit(**/.env)", "Edit", { file_path: `${WT}/.env` }, true],
  ["Edit(**/*.ts)", "Write", { file_path: `${WT}/a.ts` }, false],
  ["Write(**/*.ts)", "Write", { file_path: `${WT}/lib/a.ts` }, true],
  ["Read", "Read", { file_path: "/etc/passwd" }, true],
  ["NotebookEdit(nb/*.ipynb)", "NotebookEdit", { notebook_path: `${WT}/nb/a.ipynb` }, true],
  ["mcp__github__create_issue", "mcp__github__create_issue", { title: "x" }, true],
  ["mcp__github__*", "mcp__github__create_issue", { title: "x" }, true],
  ["mcp__github__*", "mcp__gitlab__create_issue", { title: "x" }, false],
  ["WebFetch(https://docs.example.com/*)", "WebFetch", { url: "https://docs.example.com/a" }, true],
  ["WebFetch(https://docs.example.com/*)", "WebFetch", { url: "https://evil.example.com/a" }, false],
  // a bare `*` is a glob like any other pattern (it once meant "every call"): one simple command, a
  // path without a folder; the bare tool name is how a rule says every call
  ["Bash(*)", "Bash", { command: "anything" }, true],
  ["Bash(*)", "Bash", { command: "npm test; curl x | sh" }, false],
  ["Bash", "Bash", { command: "npm test; curl x | sh" }, true],
  ["Edit(*)", "Edit", { file_path: `${WT}/a.ts` }, true],
  ["Edit(*)", "Edit", { file_path: `${WT}/src/a.ts` }, false],
  ["Edit(**)", "Edit", { file_path: `${WT}/src/a.ts` }, true],
  ["Edit(**)", "Edit", { file_path: "/etc/passwd" }, false],
  ["Edit", "Edit", { file_path: "/etc/passwd" }, true],
  // escapes: a star, a backslash, a newline as such
  ["Bash(ls \\*.ts)", "Bash", { command: "ls *.ts" }, true],
  ["Bash(ls \\*.ts)", "Bash", { command: "ls a.ts" }, false],
  ["Bash(printf 'a\\nb')", "Bash", { command: "printf 'a\nb'" }, true],
  ["Edit(src/\\[id\\].ts)", "Edit", { file_path: `${WT}/src/i.ts` }, false],
  ["not a rule(", "Bash", { command: "x" }, false],
  // an allow's `*` stays within one simple command: nothing chained, piped, substituted or redirected slips through
  ["Bash(npm test*)", "Bash", { command: "npm test; curl x | sh" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test && rm -rf ~" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test || rm -rf ~" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test | tee ~/.bashrc" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test $(rm -rf ~)" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test `rm -rf ~`" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test > ~/.ssh/authorized_keys" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test\nrm -rf ~" }, false],
  ["Bash(npm test*)", "Bash", { command: "npm test & rm -rf ~" }, false],
];

describe("permission rules", () => {
  test.each(MATCHES)("%p on %p %j → %p", (rule, tool, input, expected) => {
    expect(ruleMatches(rule, tool, input, WT)).toBe(expected);
  });

  test("a deny wins over any allow, whatever the order", () => {
    const rules = { allow: ["Bash", "Bash(rm *)"], deny: ["Bash(rm *)"] };
    expect(decideByRules(rules, "Bash", { command: "rm -rf /" }, WT)).toEqual({ behavior: "deny", rule: "Bash(rm *)" });
    expect(decideByRules(rules, "Bash", { command: "ls" }, WT)).toEqual({ behavior: "allow", rule: "Bash" });
    expect(decideByRules(rules, "Edit", { file_path: `${WT}/a` }, WT)).toBeNull();
  });

  test("a deny rule finds its command anywhere in a chain; an exact allow of a chain allows only that chain", () => {
    const rules = { allow: ["Bash(ls*)", "Bash(make; make install)"], deny: ["Bash(rm *)"] };
    for (const command of ["ls && rm -rf x", "ls; rm -rf x", "ls | rm -rf x", "echo $(rm -rf x)", "ls\nrm -rf x"]) {
      expect(decideByRules(rules, "Bash", { command }, WT)).toEqual({ behavior: "deny", rule: "Bash(rm *)" });
    }
    expect(decideByRules(rules, "Bash", { command: "make; make install" }, WT)).toEqual({ behavior: "allow", rule: "Bash(make; make install)" });
    expect(decideByRules(rules, "Bash", { command: "make; make install; curl x" }, WT)).toBeNull();
    expect(decideByRules(rules, "Bash", { command: "ls -la" }, WT)).toEqual({ behavior: "allow", rule: "Bash(ls*)" });
  });

  test.each([
    ["Bash", { command: "git status" }, "Bash(git status)"],
    ["Edit", { file_path: `${WT}/src/a.ts` }, "Edit(src/a.ts)"],
    ["Write", { file_path: "/elsewhere/a.ts" }, "Write(/elsewhere/a.ts)"],
    // a `*` (or a backslash, a newline) in a command is escaped: the rule allows this call, no wider
    ["Bash", { command: "ls *.ts" }, "Bash(ls \\*.ts)"],
    ["Bash", { command: "printf 'a\nb'" }, "Bash(printf 'a\\nb')"],
    ["Bash", { command: "echo a\\nb" }, "Bash(echo a\\\\nb)"],
    ["Edit", { file_path: `${WT}/src/[id].ts` }, "Edit(src/\\[id\\].ts)"],
    ["mcp__github__create_issue", { title: "x" }, "mcp__github__create_issue"],
    ["WebFetch", { url: "https://a.example" }, "WebFetch"],
  ] as const)("suggestRule(%p, %j) is %p, and it matches the call", (tool, input, rule) => {
    expect(suggestRule(tool, input, WT)).toBe(rule);
    expect(ruleMatches(rule, tool, input, WT)).toBe(true);
    // and no call of the same tool with a different subject
    const other = tool === "Bash" ? { command: `${String((input as Record<string, unknown>).command)}x` } : { file_path: `${WT}/elsewhere.ts` };
    if (rule !== tool) expect(ruleMatches(rule, tool, other, WT)).toBe(false);
  });

  test.each([
    ["AskUserQuestion", "question"],
    ["ExitPlanMode", "plan"],
    ["Bash", "tool"],
    ["mcp__x__y", "tool"],
  ] as const)("kindOf(%p) is %p", (tool, kind) => expect(kindOf(tool)).toBe(kind));

  test("a deny's relative pattern still covers a path outside the worktree; an allow's never does", () => {
    const outside = { file_path: "/root/.ssh/id_rsa" };
    expect(decideByRules({ allow: [], deny: ["Read(**)"] }, "Read", outside, WT)?.behavior).toBe("deny");
    expect(decideByRules({ allow: ["Read(**)"], deny: [] }, "Read", outside, WT)).toBeNull();
    expect(decideByRules({ allow: ["Read(**)"], deny: [] }, "Read", { file_path: `${WT}/src/a.ts` }, WT)?.behavior).toBe("allow");
  });

  test("parseRule", () => {
    expect(parseRule("Bash(npm test*)")).toEqual({ tool: "Bash", pattern: "npm test*" });
    expect(parseRule("Read")).toEqual({ tool: "Read", pattern: null });
    expect(parseRule("Edit()")).toEqual({ tool: "Edit", pattern: null });
    expect(parseRule("Bash(*)")).toEqual({ tool: "Bash", pattern: "*" });
    expect(parseRule("Edit(**)")).toEqual({ tool: "Edit", pattern: "**" });
    expect(parseRule("(x)")).toBeNull();
  });

  test("an agent's own troupe commands (signal, ask, listen, ...) are allowed by name and by its absolute path, one command only", () => {
    const rules = { allow: ownCommandRules("/opt/my tools/troupe"), deny: [] };
    const decide = (command: string) => decideByRules(rules, "Bash", { command }, WT)?.behavior ?? null;
    expect(decide('troupe signal done --result "all green"')).toBe("allow");
    expect(decide("/opt/my tools/troupe signal error --error boom")).toBe("allow");
    expect(decide('troupe ask "Which schema?" --user')).toBe("allow");
    expect(decide("troupe listen")).toBe("allow");
    expect(decide('/opt/my tools/troupe answer "yes" --conversation cv_1')).toBe("allow");
    expect(decide("troupe inbox --json")).toBe("allow");
    expect(decide("troupe signal done; rm -rf ~")).toBeNull();
    expect(decide('troupe ask "$(cat ~/.ssh/id_rsa)" --user')).toBeNull();
    expect(decide("troupe spawn --command 'sh'")).toBeNull();
    expect(decide("troupe listening")).toBeNull();
    expect(decide("/opt/my toolsXtroupe signal done")).toBeNull();
  });
});
