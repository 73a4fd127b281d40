import { writeFileSync } from "node:fs";
import { tryLock } from "../runtime/flock.ts";
import type { HeldLock } from "../runtime/contract.ts";

/**
 * An exclusive advisory lock held for the life of this process: the kernel drops it when
 * the process dies, however it dies, so there is no stale lock to break (and no race doing so).
 */
export class ProcessLock {
  private constructor(private readonly held: HeldLock) {}

  /** The lock, or null when another live process holds it; `content` is written into the file for others to read. */
  static tryAcquire(path: string, content: string): ProcessLock | null {
    const held = tryLock(path);
    if (!held) return null;
    // the same file, truncated and written through a second open: the lock stays with the first
    writeFileSync(path, content, { mode: 0o600 });
    return new ProcessLock(held);
  }

  release(): void {
    this.held.release();
  }
}
