import { TroupeError } from "../src/errors.ts";
import { PERMISSION_RULE_RE } from "../src/protocol/permission.ts";

/**
 * `ask` needs a CLI whose headless mode hands each tool call it may not make alone to troupe's
 * permission tool; only Claude Code's `--permission-prompt-tool` does. Others refuse it at spawn.
 */
export function askRefused(displayName: string): TroupeError {
  return new TroupeError(
    "bad_request",
    `--permissions ask is not available for ${displayName}: its headless mode cannot route a permission request to the person; use skip, edits or plan (with --allow/--deny rules where it takes them)`,
  );
}

/** `Bash(npm test*)` → ["Bash", "npm test*"]; `Read` → ["Read", null]; null for no rule. */
export function splitRule(rule: string): [tool: string, pattern: string | null] | null {
  const m = PERMISSION_RULE_RE.exec(rule.trim());
  if (!m) return null;
  return [m[1]!, m[2] === undefined || m[2] === "" ? null : m[2]];
}
