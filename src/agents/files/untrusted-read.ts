import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { errorMessage } from "../../errors.ts";

/**
 * Reading a file an agent controls (its signal file, later its proposal files) from the daemon.
 * The agent may have put anything at that path: a FIFO blocks open() until a writer comes
 * (forever; and a restarted daemon reads it again at start), a link to /dev/zero never ends,
 * a link may point anywhere. So: only regular files, only inside the agent's folder (links
 * resolved), opened non-blocking and without following a link swapped in since, and never
 * more than `maxBytes`.
 */
export type AgentFileRead = { kind: "ok"; text: string } | { kind: "missing" } | { kind: "refused"; reason: string };

export interface AgentFileLimits {
  /** Larger files are refused, not cut: half a JSON document is no use to anyone. */
  maxBytes: number;
  /** The agent's folder: the file, links resolved, must lie inside it. */
  root: string;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

export function readAgentFile(path: string, { maxBytes, root }: AgentFileLimits): AgentFileRead {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(path);
    realRoot = realpathSync(root);
  } catch (err) {
    // a dangling link is as good as no file; a link loop is the agent's doing
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "refused", reason: `cannot resolve ${path}: ${errorMessage(err)}` };
  }
  if (!isInside(realRoot, real)) return { kind: "refused", reason: `${path} leads outside the agent's folder (to ${real})` };
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
    fd = openSync(real, OPEN_FLAGS);
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

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
