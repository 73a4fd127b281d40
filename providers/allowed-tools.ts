import { parseRule } from "../src/protocol/permission-rule.ts";
import type { CommandInput } from "./types.ts";

/**
 * Allow rules as `--allowed-tools` entries of Gemini CLI and its forks (Qwen Code), `tools` naming
 * each of troupe's (Claude Code's) tools in that CLI: a whole tool, or a Bash rule whose pattern is
 * a command prefix (`npm test*` → `run_shell_command(npm test)`; these CLIs match shell commands
 * by prefix).
 * What it cannot say (file patterns, a `*` inside a command, `Bash(*)`) is left out: those calls stay
 * unapproved, which a headless run refuses (and the ACP runner denies), never a wider allow than the rule.
 */
export function prefixAllowedTools(rules: readonly string[], tools: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    const r = parseRule(rule);
    if (!r) continue;
    const { tool, pattern } = r;
    const mcp = /^mcp__([^_].*?)__(.+)$/.exec(tool);
    const name = tools[tool] ?? (mcp ? `${mcp[1]}__${mcp[2]}` : null);
    if (!name || name.includes("*")) continue;
    if (pattern === null) out.push(name);
    else if (tool === "Bash" && pattern.endsWith("*")) {
      // `Bash(*)` is any one simple command, which no prefix says: the empty one would allow every chain too
      const prefix = pattern.slice(0, -1).trimEnd();
      if (prefix !== "" && !prefix.includes("*")) out.push(`${name}(${prefix})`);
    }
  }
  return [...new Set(out)];
}

/**
 * The `--allowed-tools` flags of such a CLI (`=`: one value per flag, so nothing after is taken for
 * a tool). None under `ask` over ACP: every request then reaches the daemon, which applies the rules
 * itself and logs what they decide.
 */
export const allowedToolFlags = (input: CommandInput, tools: readonly string[]): string[] => (input.permissions === "ask" ? [] : tools.map((t) => `--allowed-tools=${t}`));
