import { closeSync, constants, openSync, watch } from "node:fs";
import type { WatchDir } from "../contract.ts";

/**
 * Bun's fs.watch takes every `\` in a path for a separator (ENOENT for `/tmp/a\b`, relative or
 * not), and git accepts such a folder as a workspace. On Linux the folder is then named by an open
 * descriptor: inotify watches the inode, so the descriptor is closed at once (held open, it would
 * keep a deleted folder's inode alive and its removal unreported); Bun reports events, the folder's
 * own included, by the names it reads through the link.
 */
function watchablePath(dir: string): { path: string; done(): void } {
  if (!dir.includes("\\") || process.platform !== "linux") return { path: dir, done: () => {} };
  // O_DIRECTORY: a FIFO at that path fails instead of blocking the open
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  return { path: `/proc/self/fd/${fd}`, done: () => closeSync(fd) };
}

/** fs.watch is inotify here, and Bun opens nothing it reports on (a FIFO in the folder is harmless). */
export const watchDir: WatchDir = (dir, onEvent, onError) => {
  const target = watchablePath(dir);
  try {
    const w = watch(target.path, { persistent: false }, (event, name) => onEvent(event === "change" ? "change" : "rename", name));
    w.on("error", onError);
    return { close: () => w.close() };
  } finally {
    target.done();
  }
};
