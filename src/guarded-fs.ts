import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, renameSync, rmSync, writeSync, type Stats } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { TroupeError, errorMessage } from "./errors.ts";
import { formatBytes } from "./protocol/bytes.ts";

/**
 * The one way the daemon reads, clears and creates anything at a path someone else can shape: an
 * agent's folder (its worktree, its `.troupe/`), and the repository files a branch can carry
 * (`.worktreeinclude`, `.troupe/config.json`, profiles). Whoever shaped the path may have put
 * anything there: a FIFO blocks open() until a writer comes (forever; and a restarted daemon
 * reads it again at start), a link to /dev/zero never ends, a link may point anywhere, and a
 * folder on the way may be a link that sends a delete or a mkdir somewhere else.
 *
 * - Reading: only regular files, only inside `root` (links resolved), opened non-blocking and
 *   without following a link swapped in since, and never more than `maxBytes`.
 * - Clearing and creating: no folder between `root` and the path may be a link (the entry itself,
 *   a link included, is removed as it is, never what it points to).
 *
 * Each check is made just before acting: a process of the same user racing it can still win (no
 * openat/unlinkat here), which is why same-user writes are not a boundary (docs/security.md).
 */
export type GuardedRead = { kind: "ok"; text: string } | { kind: "missing" } | { kind: "refused"; reason: string };

export interface ReadLimits {
  /** Larger files are refused, not cut: half a JSON document is no use to anyone. */
  maxBytes: number;
  /** The folder the file, links resolved, must lie inside. */
  root: string;
  /** How refusals name `root` ("the agent's folder"); the path by default. */
  rootName?: string;
}

export function readGuarded(path: string, { maxBytes, root, rootName = root }: ReadLimits): GuardedRead {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(path);
    realRoot = realpathSync(root);
  } catch (err) {
    // a dangling link is as good as no file; a link loop is the doing of whoever shaped the folder
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "refused", reason: `cannot resolve ${path}: ${errorMessage(err)}` };
  }
  if (!isInside(realRoot, real)) return { kind: "refused", reason: `${path} leads outside ${rootName} (to ${real})` };
  let before: Stats;
  try {
    before = lstatSync(real);
  } catch {
    return { kind: "missing" };
  }
  // refused before opening: opening a device or a FIFO is itself the harm
  if (!before.isFile()) return { kind: "refused", reason: `${path} is ${describeType(before)}, not a regular file` };
  if (before.size > maxBytes) return { kind: "refused", reason: tooBig(path, maxBytes) };
  let fd: number;
  try {
    // the flags read when called, not as this module loads: Deno's bundle loads node:fs at its first use (src/runtime/bun/lazy-builtins.ts)
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    return { kind: "refused", reason: `cannot open ${path}: ${errorMessage(err)}` };
  }
  try {
    // the path may have been swapped between lstat and open: what counts is what was opened
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "refused", reason: `${path} is ${describeType(st)}, not a regular file` };
    // read to the cap + 1, not to the size fstat gave: the file may still be growing
    const buf = Buffer.allocUnsafe(maxBytes + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return { kind: "refused", reason: tooBig(path, maxBytes) };
    return { kind: "ok", text: buf.subarray(0, got).toString("utf8") };
  } finally {
    closeSync(fd);
  }
}

/** The text of a file that may be absent (null); anything refused is a `bad_request` naming why. */
export function readGuardedText(path: string, limits: ReadLimits): string | null {
  const read = readGuarded(path, limits);
  if (read.kind === "refused") throw new TroupeError("bad_request", read.reason);
  return read.kind === "ok" ? read.text : null;
}

/**
 * Each folder from `root` (exclusive) down to `dir` (inclusive) as it is on disk: the first that is
 * missing ends the walk (`missing`), a link or a non-folder is refused. `dir` must lie below `root`.
 */
function walk(dir: string, root: string, onMissing: (path: string) => "stop" | "made"): "whole" | "missing" {
  const rel = relative(root, dir);
  if (rel !== "" && (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))) {
    throw new TroupeError("internal", `${dir} is not inside ${root}`);
  }
  let cur = root;
  for (const part of rel === "" ? [] : rel.split(sep)) {
    cur = join(cur, part);
    const st = lstatSync(cur, { throwIfNoEntry: false });
    if (!st) {
      if (onMissing(cur) === "stop") return "missing";
      continue;
    }
    if (st.isSymbolicLink()) throw linkRefused(cur);
    if (!st.isDirectory()) throw new TroupeError("invalid_state", `${cur} is ${describeType(st)}, not a folder; troupe will not create or delete below it (remove it)`);
  }
  return "whole";
}

function linkRefused(path: string): TroupeError {
  let to = "";
  try {
    to = ` (to ${realpathSync(path)})`;
  } catch {
    // dangling: no target to name
  }
  return new TroupeError("invalid_state", `${path} is a link${to}; troupe will not create or delete through a link (remove it)`);
}

/** Creates `dir` and the folders above it up to `root`, refusing a link or a file on the way. */
export function makeDirGuarded(dir: string, root: string, mode = 0o700): void {
  walk(dir, root, (path) => {
    try {
      mkdirSync(path, { mode });
    } catch (err) {
      // made meanwhile by someone else: the walk looks at what is there now
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const st = lstatSync(path);
      if (st.isSymbolicLink()) throw linkRefused(path);
      if (!st.isDirectory()) throw new TroupeError("invalid_state", `${path} is not a folder`);
    }
    return "made";
  });
}

/**
 * Removes whatever sits at `path` (a file, a link, a FIFO, a folder and all it holds): never what
 * a link points to, and never through a folder on the way that is a link (refused).
 */
export function removeGuarded(path: string, root: string): void {
  if (walk(dirname(path), root, () => "stop") === "missing") return;
  // rm removes a link as a link, and never follows one inside a folder it deletes
  rmSync(path, { recursive: true, force: true });
}

/**
 * Writes `text` at `path` whole (a new temp file beside it, opened O_EXCL so a link planted at its
 * name is not followed, renamed over the path: a reader never sees half of it, and a link at the
 * path is replaced, not written through). The folders on the way are made as by makeDirGuarded.
 */
export function writeGuarded(path: string, text: string, root: string, mode = 0o600): void {
  const dir = dirname(path);
  makeDirGuarded(dir, root);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    const what = lstatSync(path, { throwIfNoEntry: false })?.isDirectory() ? `${path} is a directory (remove it)` : errorMessage(err);
    throw new TroupeError("invalid_state", `could not write ${path}: ${what}`, { cause: err });
  }
}

function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function describeType(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function tooBig(path: string, maxBytes: number): string {
  return `${path} is larger than ${formatBytes(maxBytes)}, the limit for this file`;
}
