// A permission rule's text, parsed: zod-free, so the providers that build CLI flags from rules (and the web page, which loads them) need no schema.

/** `Tool` or `Tool(pattern)`: a tool name (`Bash`, `mcp__github__*`) and an optional pattern on one line. */
const PERMISSION_RULE_RE = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/;

export interface ParsedRule {
  tool: string;
  /** null: every call of the tool (`Read`, `Read()`); any pattern, a bare `*` included, is a glob. */
  pattern: string | null;
}

/** The one rule parser: `Bash(npm test*)` → {tool: "Bash", pattern: "npm test*"}; null for text that is no rule. */
export function parseRule(rule: string): ParsedRule | null {
  const m = PERMISSION_RULE_RE.exec(rule.trim());
  if (!m) return null;
  return { tool: m[1]!, pattern: m[2] === undefined || m[2] === "" ? null : m[2] };
}
