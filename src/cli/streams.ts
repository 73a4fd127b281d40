/**
 * The CLI's stdout and stderr. Bun writes to a pipe asynchronously: what the reader has not
 * taken yet stays queued in the process, and `process.exit` throws it away (a slow reader
 * got exactly 64 KiB, the pipe's buffer, and no error). Every CLI write goes through here,
 * so main.ts knows whether anything is still queued and waits for it before exiting.
 */
export class Sink {
  /** A write returned false and no `drain` has come since: bytes are queued in this process. */
  private backlog = false;
  private closed = false;
  private waiters: (() => void)[] = [];
  private closeHandlers: (() => void)[] = [];

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on("drain", () => {
      this.backlog = false;
      this.wake();
    });
    // Without a listener Bun prints the error with a stack and exits 1. A reader that went
    // away (`| head -1`) is normal use, not an error.
    stream.on("error", (err: NodeJS.ErrnoException) => {
      this.closed = true;
      this.backlog = false;
      this.wake();
      if (err.code === "EPIPE") for (const h of this.closeHandlers) h();
    });
  }

  /** Queues `text`; the promise resolves once the stream can take more (await it in loops that print a lot). */
  write(text: string): Promise<void> {
    if (this.closed || text === "") return this.flushed();
    if (!this.stream.write(text)) this.backlog = true;
    return this.flushed();
  }

  /** Resolves when nothing written so far is queued in this process (or the reader is gone). */
  flushed(): Promise<void> {
    if (!this.backlog || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** `handler` runs when the reader closed its end (EPIPE). */
  onReaderGone(handler: () => void): void {
    this.closeHandlers.push(handler);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export const stdout = new Sink(process.stdout);
export const stderr = new Sink(process.stderr);

/** Resolves when stdout and stderr hold nothing queued: only then may the process exit. */
export function flushAll(): Promise<void> {
  return Promise.all([stdout.flushed(), stderr.flushed()]).then(() => undefined);
}
