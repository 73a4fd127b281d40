import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Which workspace config files this user trusted to run commands (`worktree.setup`), as direnv
 * and mise do: by a hash of the file's path and content, under the user's state folder, never in
 * the repository. A pulled branch or a merged agent branch that changes the file changes the
 * hash, so nothing it adds runs before the person looked at it and ran `troupe trust` again.
 */
export function trustDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "troupe", "trusted");
}

function stamp(path: string, content: string): string {
  return createHash("sha256").update(path).update("\0").update(content).digest("hex");
}

/** Whether `content` (the file at `path` as read by the caller) was trusted. */
export function isTrusted(path: string, env: NodeJS.ProcessEnv, content: string): boolean {
  return existsSync(join(trustDir(env), stamp(path, content)));
}

/** Records the file's current content as trusted; returns the record's path. */
export function trust(path: string, env?: NodeJS.ProcessEnv): string {
  const content = readFileSync(path, "utf8");
  const dir = trustDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rec = join(dir, stamp(path, content));
  writeFileSync(rec, `${path}\n`, { mode: 0o600 });
  return rec;
}
