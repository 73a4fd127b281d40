/** What both exit watchers (bun/, deno/exit-watch.ts) say to Linux through libc. */
export const SYS_PIDFD_OPEN = 434; // the same number on every Linux architecture (added in 5.3)
export const O_NONBLOCK = 0o4000;
export const O_CLOEXEC = 0o2000000;
export const POLLIN = 1;

/**
 * Whether `pid` exists (any user's). No errno comes through FFI: a pid that exists but got no
 * pidfd means this kernel has none ("unsupported"), one that does not is "gone".
 */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
