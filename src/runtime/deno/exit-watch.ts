import type { ExitWatcher, StartExitWatcher } from "../contract.ts";
import { O_CLOEXEC, O_NONBLOCK, pidExists, POLLIN, SYS_PIDFD_OPEN } from "../portable/pidfd.ts";
import { linuxLibc, type Libc } from "./libc.ts";

/**
 * pidfd_open(2) here, poll(2) as a nonblocking FFI call (Deno runs it on a thread of its own
 * and resolves a promise): the loop never blocks, and nothing wakes while no watched process
 * ends. A byte on a pipe wakes the poll when a pidfd is added or the watcher closes.
 */
export const startExitWatcher: StartExitWatcher = (onExit) => {
  const watched = new Map<number, number>(); // pidfd -> pid
  let wake: [read: number, write: number] | null = null;
  let closed = false;
  let broken = false;
  const byte = new Uint8Array(1);

  const loop = async (libc: Libc, [readEnd, writeEnd]: [number, number]): Promise<void> => {
    const drain = new Uint8Array(64);
    while (!closed) {
      const fds = [readEnd, ...watched.keys()];
      const set = new Int32Array(fds.length * 2);
      fds.forEach((fd, i) => {
        set[i * 2] = fd;
        set[i * 2 + 1] = POLLIN;
      });
      if ((await libc.poll(set, BigInt(fds.length), -1)) < 0) continue; // EINTR
      const ready = (i: number) => set[i * 2 + 1]! >>> 16 !== 0;
      for (let i = 1; i < fds.length; i++) {
        if (!ready(i)) continue;
        const pid = watched.get(fds[i]!)!;
        watched.delete(fds[i]!);
        libc.close(fds[i]!);
        if (!closed) onExit(pid);
      }
      if (ready(0)) while (Number(libc.read(readEnd, drain, BigInt(drain.length))) > 0);
    }
    for (const fd of watched.keys()) libc.close(fd);
    watched.clear();
    libc.close(readEnd);
    libc.close(writeEnd);
  };

  const start = (libc: Libc): boolean => {
    const fds = new Int32Array(2);
    if (libc.pipe2(fds, O_CLOEXEC | O_NONBLOCK) !== 0) return false;
    wake = [fds[0]!, fds[1]!];
    loop(libc, wake).catch(() => {
      // the poll failed: every pid held is reported, so the caller looks at each (and polls what still lives)
      broken = true;
      const lost = [...watched.values()];
      watched.clear();
      for (const pid of lost) if (!closed) onExit(pid);
    });
    return true;
  };

  const watcher: ExitWatcher = {
    watch(pid) {
      const libc = linuxLibc();
      if (!libc || broken || closed) return "unsupported";
      if (!wake && !start(libc)) return "unsupported";
      const fd = Number(libc.syscall(BigInt(SYS_PIDFD_OPEN), BigInt(pid), 0n));
      // no errno through FFI: a pid that exists but gets no pidfd means the kernel has none
      if (fd < 0) return pidExists(pid) ? "unsupported" : "gone";
      watched.set(fd, pid);
      libc.write(wake![1], byte, 1n);
      return "watching";
    },
    close() {
      if (closed) return;
      closed = true;
      // the loop wakes, closes every pidfd and both ends of the pipe, and ends
      if (wake) linuxLibc()?.write(wake[1], byte, 1n);
    },
  };
  return watcher;
};
