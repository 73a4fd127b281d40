import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync, writeFileSync, ftruncateSync } from "node:fs";

const LOCK_EX = 2;
const LOCK_NB = 4;

let libc: { symbols: { flock: (fd: number, op: number) => number } } | null = null;

function flockFn(): (fd: number, op: number) => number {
  libc ??= dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  });
  return libc.symbols.flock;
}

/**
 * An exclusive advisory lock held for the life of this process: the kernel drops it when
 * the process dies, however it dies, so there is no stale lock to break (and no race doing so).
 */
export class ProcessLock {
  private constructor(private readonly fd: number) {}

  /** The lock, or null when another live process holds it; `content` is written into the file for others to read. */
  static tryAcquire(path: string, content: string): ProcessLock | null {
    const fd = openSync(path, "a+", 0o600);
    if (flockFn()(fd, LOCK_EX | LOCK_NB) !== 0) {
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
