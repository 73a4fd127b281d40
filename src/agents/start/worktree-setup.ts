import { readFileSync } from "node:fs";
import { TroupeError } from "../../errors.ts";
import { WorkspaceConfigSchema } from "../../protocol/config.ts";
import { configPath, worktreeConfig } from "../../workspace-config.ts";
import { isTrusted } from "../../trust.ts";
import { copyIncluded, includePatterns } from "../../git/include.ts";
import type { Logger } from "../../events/log.ts";

/**
 * The `worktree.setup` command a new worktree runs before its agent starts, or null when the
 * config has none. Refused (`untrusted_config`) while the person has not trusted the config's
 * current content with `troupe trust`: a refusal is clearer than a spawn that runs without the
 * dependencies it expects. The text checked is the text the command is read from (no swap between).
 */
export function trustedSetup(stateDir: string): string | null {
  const path = configPath(stateDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null; // reported as a broken config by every other read of it
  }
  const setup = WorkspaceConfigSchema.safeParse(json).data?.worktree?.setup;
  if (!setup) return null;
  if (!isTrusted(path, process.env, text)) {
    throw new TroupeError(
      "untrusted_config",
      `${path} asks to run '${setup}' in each new worktree (worktree.setup); review the file, then run 'troupe trust' to allow it`,
    );
  }
  return setup;
}

/** Copies the ignored files a new worktree needs (`.worktreeinclude`, `worktree.include`). */
export async function copyIncludes(root: string, stateDir: string, worktree: string, log: Logger): Promise<void> {
  const patterns = includePatterns(root, worktreeConfig(stateDir).include ?? []);
  const copied = await copyIncluded(root, worktree, patterns);
  if (copied.length) log.info(`copied into ${worktree}: ${copied.join(", ")}`);
}
