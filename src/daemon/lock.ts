import { closeSync, openSync, writeFileSync, ftruncateSync } from "node:fs";
import { tryLockFd } from "../runtime/flock.ts";

/**
 * An exclusive advisory lock held for the life of this process: the kernel drops it when
 * the process dies, however it dies, so there is no stale lock to break (and no race doing so).
 */
export class ProcessLock {
  private constructor(private readonly fd: number) {}

  /** The lock, or null when another live process holds it; `content` is written into the file for others to read. */
  static tryAcquire(path: string, content: string): ProcessLock | null {
    const fd = openSync(path, "a+", 0o600);
    if (!tryLockFd(fd)) {
      closeSync(fd);
      return null;
    }
    ftruncateSync(fd, 0);
    writeFileSync(fd, content);
    return new ProcessLock(fd);
  }

  release(): void {
    closeSync(this.fd);
  }
}
