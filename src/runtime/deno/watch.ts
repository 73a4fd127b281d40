import { watch } from "node:fs";
import { basename } from "node:path";
import type { DirEvent, DirWatcher, WatchDir } from "../contract.ts";
import { cString, linuxLibc, type Libc } from "./libc.ts";
import { Poller } from "./poller.ts";

const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
const IN_MODIFY = 0x2;
const IN_ATTRIB = 0x4;
const IN_Q_OVERFLOW = 0x4000;
const IN_IGNORED = 0x8000;
/** What libuv (Node's and Bun's fs.watch) asks for: created, deleted, moved, written, the folder itself. */
const MASK = 0x2 | 0x4 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800;

interface Handlers {
  onEvent(event: DirEvent, name: string | null): void;
  onError(err: Error): void;
}
interface Watched {
  dir: string;
  handlers: Set<Handlers>;
}

/** One inotify descriptor for the process, on a Poller while anything is watched. */
let inotify: { fd: number; poller: Poller; wds: Map<number, Watched> } | null = null;
const buf = new Uint8Array(64 * 1024);
const decoder = new TextDecoder();

function drop(libc: Libc): void {
  if (!inotify || inotify.wds.size > 0) return;
  inotify.poller.remove(inotify.fd);
  libc.close(inotify.fd);
  inotify = null;
}

/** Reads every queued event (struct inotify_event: wd, mask, cookie, len, name) and hands each on. */
function readEvents(libc: Libc): void {
  for (;;) {
    const state = inotify;
    if (!state) return;
    const got = Number(libc.read(state.fd, buf, BigInt(buf.length)));
    if (got <= 0) return; // EAGAIN: all read
    const view = new DataView(buf.buffer, buf.byteOffset, got);
    for (let at = 0; at + 16 <= got; ) {
      const wd = view.getInt32(at, true);
      const mask = view.getUint32(at + 4, true);
      const len = view.getUint32(at + 12, true);
      const raw = buf.subarray(at + 16, at + 16 + len);
      at += 16 + len;
      if (mask & IN_Q_OVERFLOW) {
        for (const w of state.wds.values()) for (const h of w.handlers) h.onEvent("rename", null);
        continue;
      }
      const watched = state.wds.get(wd);
      if (!watched) continue; // a watch already closed
      if (mask & IN_IGNORED) {
        state.wds.delete(wd);
        for (const h of watched.handlers) h.onError(new Error(`${watched.dir} is no longer watched (deleted or moved)`));
        continue;
      }
      const end = raw.indexOf(0);
      const name = len === 0 ? basename(watched.dir) : decoder.decode(end === -1 ? raw : raw.subarray(0, end));
      const event: DirEvent = mask & (IN_MODIFY | IN_ATTRIB) ? "change" : "rename";
      for (const h of watched.handlers) h.onEvent(event, name);
    }
    drop(libc);
  }
}

/**
 * inotify through libc on a Poller: Deno's own fs.watch opens a FIFO created in a watched folder
 * (from its watcher thread, which then blocks until a writer comes) and the next fs.watch call
 * waits on that thread: the daemon hung at `mkfifo` in the workspace. Elsewhere than Linux,
 * Deno's fs.watch.
 */
export const watchDir: WatchDir = (dir, onEvent, onError) => {
  const libc = linuxLibc();
  if (!libc) {
    const w = watch(dir, { persistent: false }, (event, name) => onEvent(event === "change" ? "change" : "rename", name));
    w.on("error", onError);
    return { close: () => w.close() };
  }
  if (!inotify) {
    const fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) throw new Error("inotify_init1 failed");
    const poller = new Poller(libc, () => {
      // poll itself failed: every watch ends, as a deleted folder's would
      const state = inotify;
      inotify = null;
      if (!state) return;
      libc.close(state.fd);
      for (const w of state.wds.values()) for (const h of w.handlers) h.onError(new Error(`watching ${w.dir} failed`));
    });
    inotify = { fd, poller, wds: new Map() };
    if (!poller.add(fd, () => readEvents(libc))) {
      libc.close(fd);
      inotify = null;
      throw new Error("no pipe for the watch's poll");
    }
  }
  const state = inotify;
  const wd = libc.inotify_add_watch(state.fd, cString(dir), MASK);
  if (wd < 0) {
    drop(libc);
    throw Object.assign(new Error(`cannot watch ${dir}`), { code: "ENOENT" });
  }
  const watched = state.wds.get(wd) ?? { dir, handlers: new Set<Handlers>() };
  state.wds.set(wd, watched);
  const handlers: Handlers = { onEvent, onError };
  watched.handlers.add(handlers);
  const watcher: DirWatcher = {
    close: () => {
      if (!watched.handlers.delete(handlers) || watched.handlers.size > 0) return;
      if (inotify === state && state.wds.get(wd) === watched) {
        state.wds.delete(wd);
        libc.inotify_rm_watch(state.fd, wd);
      }
      drop(libc);
    },
  };
  return watcher;
};
