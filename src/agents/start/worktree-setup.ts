import { TroupeError, errorMessage } from "../../errors.ts";
import { readWorkspaceConfigText, worktreeConfig } from "../../workspace-config.ts";
import { isTrusted } from "../../trust.ts";
import { copyIncluded, includePatterns } from "../../git/include.ts";
import type { Logger } from "../../events/log.ts";

/**
 * The `worktree.setup` command a new worktree runs before its agent starts, or null when the
 * config has none. Refused (`untrusted_config`) while the person has not trusted the config's
 * current content with `troupe trust`: a refusal is clearer than a spawn that runs without the
 * dependencies it expects. The text checked is the text the command is read from (no swap
 * between), read guarded as every read of the config is (src/workspace-config.ts).
 */
function trustedSetup(stateDir: string): string | null {
  // a file that is no JSON, or breaks the schema, is reported as a broken config by every other read of it
  const read = readWorkspaceConfigText(stateDir);
  const setup = read?.config?.worktree?.setup;
  if (!read || !setup) return null;
  if (!isTrusted(read.path, process.env, read.text)) {
    throw new TroupeError(
      "untrusted_config",
      `${read.path} asks to run '${setup}' in each new worktree (worktree.setup); review the file, then run 'troupe trust' to allow it`,
    );
  }
  return setup;
}

/** What a new worktree needs from the repository's files, read before anything is created. */
export interface WorktreePrep {
  /** The trusted `worktree.setup` command, or null. */
  setup: string | null;
  /** The patterns of the ignored files to copy in (`.worktreeinclude`, `worktree.include`). */
  include: string[];
}

/**
 * Reads what a new worktree needs: a config or a `.worktreeinclude` that cannot be read (broken,
 * a FIFO, a device, too big, a link out of the workspace) or a setup not trusted refuses the
 * spawn with the reason, before anything exists.
 */
export function worktreePrep(root: string, stateDir: string, log: Logger): WorktreePrep {
  const setup = trustedSetup(stateDir);
  const extra = worktreeConfig(stateDir).include ?? [];
  try {
    return { setup, include: includePatterns(root, extra) };
  } catch (err) {
    // a branch brought it: said in the daemon's log too, not only to whoever spawned
    log.warn(`refusing to spawn with a worktree: ${errorMessage(err)}`);
    throw err;
  }
}

/** Copies the ignored files a new worktree needs (the patterns of `worktreePrep`). */
export async function copyIncludes(root: string, worktree: string, patterns: string[], log: Logger): Promise<void> {
  const { copied, skipped } = await copyIncluded(root, worktree, patterns);
  if (copied.length) log.info(`copied into ${worktree}: ${copied.join(", ")}`);
  if (skipped.length) log.warn(`not copied into ${worktree}: ${skipped.join(", ")}`);
}
