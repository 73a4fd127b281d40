import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync, writeSync } from "node:fs";
import type { ExitWatcher, StartExitWatcher } from "../contract.ts";
import { O_CLOEXEC, O_NONBLOCK, pidExists, SYS_PIDFD_OPEN } from "../portable/pidfd.ts";

/**
 * The watching thread, as source (a blob module loads the same from source and from the
 * compiled binary; see checkpointer.ts). It owns every pidfd it is sent: it blocks in poll()
 * on them and on the command pipe, so it costs nothing until a process ends or a pidfd comes.
 * Records on the pipe are [pidfd, pid] pairs of int32; end of file means stop.
 */
const WORKER_SOURCE = `
import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync, readSync } from "node:fs";
const { poll } = dlopen("libc.so.6", { poll: { args: [FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i32 } }).symbols;
const POLLIN = 1;
self.onmessage = (e) => {
  const pipe = e.data.pipe;
  const watched = new Map(); // pidfd -> pid
  const buf = new Int32Array(1024); // a multiple of the 8-byte record: reads never split one
  const bytes = new Uint8Array(buf.buffer);
  for (;;) {
    const fds = [pipe, ...watched.keys()];
    const set = new Int32Array(fds.length * 2);
    fds.forEach((fd, i) => { set[i * 2] = fd; set[i * 2 + 1] = POLLIN; });
    if (poll(ptr(set), fds.length, -1) < 0) continue; // EINTR
    const ready = (i) => set[i * 2 + 1] >>> 16 !== 0;
    const exited = [];
    for (let i = 1; i < fds.length; i++) {
      if (!ready(i)) continue;
      exited.push(watched.get(fds[i]));
      watched.delete(fds[i]);
      closeSync(fds[i]);
    }
    if (exited.length) postMessage({ exited });
    if (!ready(0)) continue;
    let got;
    try {
      got = readSync(pipe, bytes, 0, bytes.length, null);
    } catch {
      continue; // EAGAIN: another wake-up raced this one
    }
    if (got === 0) {
      for (const fd of watched.keys()) closeSync(fd);
      closeSync(pipe);
      self.close();
      return;
    }
    for (let i = 0; i + 1 < got / 4; i += 2) watched.set(buf[i], buf[i + 1]);
  }
};
`;

let workerUrl: string | null = null;

interface Libc {
  syscall: (n: number, a: number, b: number) => number | bigint;
  pipe2: (fds: ReturnType<typeof ptr>, flags: number) => number;
}
let libc: Libc | null | undefined;

function libcFns(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc =
      process.platform === "linux"
        ? (dlopen("libc.so.6", {
            syscall: { args: [FFIType.i64, FFIType.i64, FFIType.i64], returns: FFIType.i64 },
            pipe2: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
          }).symbols as unknown as Libc)
        : null;
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * pidfd_open(2) here (one quick syscall), poll(2) on a Worker: the daemon's loop never blocks,
 * and nothing wakes while no watched process ends. If the thread fails, every pid it held is
 * reported, so the caller looks at each (and polls what still lives).
 */
export const startExitWatcher: StartExitWatcher = (onExit) => {
  let worker: Worker | null = null;
  let pipeWrite = -1;
  let broken = false;
  let closed = false;
  const held = new Set<number>();
  const record = new Int32Array(2);

  const start = (fns: Libc): boolean => {
    const fds = new Int32Array(2);
    if (fns.pipe2(ptr(fds), O_CLOEXEC | O_NONBLOCK) !== 0) return false;
    workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const w = new Worker(workerUrl, { type: "module" });
    // a blocked watcher must not keep the daemon alive
    w.unref();
    w.onmessage = (e: MessageEvent<{ exited: number[] }>) => {
      for (const pid of e.data.exited) {
        held.delete(pid);
        if (!closed) onExit(pid);
      }
    };
    w.onerror = () => {
      broken = true;
      worker = null;
      const lost = [...held];
      held.clear();
      for (const pid of lost) if (!closed) onExit(pid);
    };
    w.postMessage({ pipe: fds[0] });
    pipeWrite = fds[1]!;
    worker = w;
    return true;
  };

  const watcher: ExitWatcher = {
    watch(pid) {
      const fns = libcFns();
      if (!fns || broken || closed) return "unsupported";
      if (!worker && !start(fns)) return "unsupported";
      const fd = Number(fns.syscall(SYS_PIDFD_OPEN, pid, 0));
      // no errno through FFI: a pid that exists but gets no pidfd means the kernel has none
      if (fd < 0) return pidExists(pid) ? "unsupported" : "gone";
      record[0] = fd;
      record[1] = pid;
      try {
        writeSync(pipeWrite, new Uint8Array(record.buffer));
      } catch {
        closeSync(fd); // a full pipe: the thread is stuck; this one is the caller's to look after
        return "unsupported";
      }
      held.add(pid);
      return "watching";
    },
    close() {
      if (closed) return;
      closed = true;
      // end of file tells the thread to close its pidfds and end
      if (pipeWrite >= 0) closeSync(pipeWrite);
      worker = null;
    },
  };
  return watcher;
};
