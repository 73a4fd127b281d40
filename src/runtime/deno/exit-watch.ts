import type { ExitWatcher, StartExitWatcher } from "../contract.ts";
import { pidExists, SYS_PIDFD_OPEN } from "../portable/pidfd.ts";
import { linuxLibc } from "./libc.ts";
import { Poller } from "./poller.ts";

/**
 * pidfd_open(2) here, each pidfd on a Poller (poll(2) off this thread): nothing wakes while no
 * watched process ends. If the poll fails, every pid held is reported, so the caller looks at each
 * (and polls what still lives).
 */
export const startExitWatcher: StartExitWatcher = (onExit) => {
  const libc = linuxLibc();
  const watched = new Map<number, number>(); // pidfd -> pid
  let closed = false;
  let broken = false;
  const poller = libc
    ? new Poller(libc, (fds) => {
        broken = true;
        for (const fd of fds) {
          const pid = watched.get(fd);
          watched.delete(fd);
          libc.close(fd);
          if (pid !== undefined && !closed) onExit(pid);
        }
      })
    : null;

  const watcher: ExitWatcher = {
    watch(pid) {
      if (!libc || !poller || broken || closed) return "unsupported";
      const fd = Number(libc.syscall(BigInt(SYS_PIDFD_OPEN), BigInt(pid), 0n));
      // no errno through FFI: a pid that exists but gets no pidfd means the kernel has none
      if (fd < 0) return pidExists(pid) ? "unsupported" : "gone";
      watched.set(fd, pid);
      const added = poller.add(fd, () => {
        poller.remove(fd);
        watched.delete(fd);
        libc.close(fd);
        if (!closed) onExit(pid);
      });
      if (added) return "watching";
      watched.delete(fd);
      libc.close(fd);
      return "unsupported";
    },
    close() {
      if (closed) return;
      closed = true;
      for (const fd of watched.keys()) {
        poller?.remove(fd);
        libc?.close(fd);
      }
      watched.clear();
    },
  };
  return watcher;
};
