import { TroupeError } from "../src/errors.ts";
import type { PermissionMode } from "../src/protocol/permission-modes.ts";

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

/** A mode the CLI cannot honour headless, refused at spawn in one line: why, and what it can do. */
export function modeRefused(displayName: string, mode: PermissionMode, why: string, modes: readonly PermissionMode[]): TroupeError {
  return new TroupeError("bad_request", `--permissions ${mode} is not available for ${displayName}: ${why}; use ${modes.join(" or ")}`);
}
