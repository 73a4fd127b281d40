import { PERMISSION_RULE_RE } from "./permission.ts";

/**
 * The one reading of a permission rule, shared by the daemon's policy (src/permissions/rules.ts)
 * and the providers that hand rules to their CLI (providers/gemini.ts). A rule is `Tool` (every
 * call of that tool) or `Tool(pattern)`, and a pattern is a glob whatever it holds: `Bash(*)` is
 * one simple command, `Edit(*)` a file at the top of the worktree, never "every call".
 */
export interface ParsedRule {
  tool: string;
  /** null: every call of the tool (`Read`, or `Read()` with nothing inside). */
  pattern: string | null;
}

/** `Bash(npm test*)` → {tool: "Bash", pattern: "npm test*"}; null for text that is no rule. */
export function parseRule(rule: string): ParsedRule | null {
  const m = PERMISSION_RULE_RE.exec(rule.trim());
  if (!m) return null;
  return { tool: m[1]!, pattern: m[2] === undefined || m[2] === "" ? null : m[2] };
}
