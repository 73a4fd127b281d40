import { O_CLOEXEC, O_NONBLOCK, POLLIN } from "../portable/pidfd.ts";
import type { Libc } from "./libc.ts";

/**
 * poll(2) on a changing set of descriptors, as a nonblocking FFI call (Deno runs it on a thread of
 * its pool and resolves a promise): this thread never blocks, and nothing wakes while no
 * descriptor is ready. A byte on a pipe wakes the poll when the set changes. The loop runs while
 * any descriptor is added and ends (its pipe closed) once none is, so an idle program can end.
 */
export class Poller {
  private readonly ready = new Map<number, () => void>(); // fd -> called when readable
  private wake: [read: number, write: number] | null = null;
  private readonly byte = new Uint8Array(1);

  /** `onFailure`: poll itself failed; every descriptor is dropped (each owner is told by it). */
  constructor(
    private readonly libc: Libc,
    private readonly onFailure: (fds: number[]) => void,
  ) {}

  /** Calls `onReadable` whenever `fd` can be read, until removed; false when no pipe could be made. */
  add(fd: number, onReadable: () => void): boolean {
    this.ready.set(fd, onReadable); // first: a loop started now runs while any is set
    if (!this.wake && !this.start()) {
      this.ready.delete(fd);
      return false;
    }
    this.nudge();
    return true;
  }

  remove(fd: number): void {
    if (this.ready.delete(fd)) this.nudge();
  }

  private nudge(): void {
    if (this.wake) this.libc.write(this.wake[1], this.byte, 1n); // a full pipe is awake already
  }

  private start(): boolean {
    const fds = new Int32Array(2);
    if (this.libc.pipe2(fds, O_CLOEXEC | O_NONBLOCK) !== 0) return false;
    const wake: [number, number] = [fds[0]!, fds[1]!];
    this.wake = wake;
    this.loop(wake).catch(() => {
      const lost = [...this.ready.keys()];
      this.ready.clear();
      this.stop(wake);
      this.onFailure(lost);
    });
    return true;
  }

  private stop(wake: [number, number]): void {
    if (this.wake !== wake) return;
    this.wake = null;
    this.libc.close(wake[0]);
    this.libc.close(wake[1]);
  }

  private async loop(wake: [number, number]): Promise<void> {
    const drain = new Uint8Array(64);
    while (this.ready.size > 0) {
      const fds = [wake[0], ...this.ready.keys()];
      const set = new Int32Array(fds.length * 2);
      fds.forEach((fd, i) => {
        set[i * 2] = fd;
        set[i * 2 + 1] = POLLIN;
      });
      if ((await this.libc.poll(set, BigInt(fds.length), -1)) < 0) continue; // EINTR
      for (let i = 1; i < fds.length; i++) if (set[i * 2 + 1]! >>> 16 !== 0) this.ready.get(fds[i]!)?.();
      if (set[1]! >>> 16 !== 0) while (Number(this.libc.read(wake[0], drain, BigInt(drain.length))) > 0);
    }
    this.stop(wake);
  }
}
