import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * `.troupe/` holds agents' environments (API keys), prompts and output: it is this user's alone,
 * folders 0700 and files 0600 (0700 for the one executable, the `troupe` shim). The daemon gets
 * there by creating everything under umask 077, so a file added later is covered without thought;
 * the agents it starts get the umask the daemon was started with back, since what they write in
 * the user's repository is the user's, with the user's modes.
 */
let startUmask: number | null = null;

/** Umask 077 for this process from now on (the daemon's; never a client's). */
export function keepFilesPrivate(): void {
  startUmask ??= process.umask(0o077);
}

/** The umask this process had before keepFilesPrivate(), or null when it was never called. */
export function userUmask(): number | null {
  return startUmask;
}

/** A worktree's checked-out content belongs to the repository, not to troupe; its `.troupe/` is troupe's. */
function isCheckout(stateDir: string, dir: string, entry: string): boolean {
  return dirname(dir) === join(stateDir, "worktrees") && entry !== ".troupe";
}

/**
 * Brings a state folder written by an older troupe (or by a client under its own umask) to
 * 0700/0600. Links are never followed: an agent controls files in its worktree.
 */
export function tightenModes(stateDir: string): void {
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return; // gone meanwhile (an agent removed), or not ours to read
    }
    for (const entry of entries) {
      if (isCheckout(stateDir, dir, entry)) continue;
      const path = join(dir, entry);
      try {
        const st = lstatSync(path);
        if (st.isDirectory()) {
          if ((st.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
          walk(path);
        } else if (st.isFile()) {
          const want = st.mode & 0o100 ? 0o700 : 0o600;
          if ((st.mode & 0o777) !== want) chmodSync(path, want);
        }
      } catch {
        // removed while we walked: nothing to tighten
      }
    }
  };
  chmodSync(stateDir, 0o700);
  walk(stateDir);
}

/**
 * Writes `text` to `path` as a 0600 file in a 0700 folder, atomically (temp file + rename), so a
 * reader never sees half of it and the content is never readable by others, even for an instant.
 */
export function writePrivateFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  // left by a crash: "wx" below must create the file, with our mode (asked first: on Deno a forced remove of a missing file builds an error)
  if (existsSync(tmp)) rmSync(tmp, { force: true });
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
