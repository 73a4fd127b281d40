import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { TroupeError } from "./errors.ts";
import { readGuardedText } from "./guarded-fs.ts";

/**
 * Which workspace config files this user trusted to run commands (`worktree.setup`), as direnv
 * and mise do: by a hash of the file's path and content, under the user's state folder, never in
 * the repository. A pulled branch or a merged agent branch that changes the file changes the
 * hash, so nothing it adds runs before the person looked at it and ran `troupe trust` again.
 */
function trustDir(env: NodeJS.ProcessEnv = process.env): string {
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

/** A config or a profile is a few KiB; a repository could hold anything at the path. */
const TRUSTED_MAX_BYTES = 1024 * 1024;

/**
 * Records the file's current content as trusted, once `check` (which throws to refuse) accepted
 * it; returns the record's path and the content trusted (what to show the person: the bytes read
 * once, never a second read). Read guarded: a FIFO, a device or a file over 1 MiB is refused.
 */
export function trust(path: string, env?: NodeJS.ProcessEnv, check: (text: string) => void = () => {}): { record: string; text: string } {
  const text = readGuardedText(path, { maxBytes: TRUSTED_MAX_BYTES, root: "/" });
  if (text === null) throw new TroupeError("not_found", `${path} does not exist: nothing to trust`);
  check(text);
  const dir = trustDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record = join(dir, stamp(path, text));
  writeFileSync(record, `${path}\n`, { mode: 0o600 });
  return { record, text };
}
