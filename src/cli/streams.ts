import { writeSync } from "node:fs";

/**
 * The CLI's stdout and stderr, written straight to file descriptors 1 and 2.
 *
 * Why not `process.stdout`: its first use builds Node's stream machinery, ~8 ms of a ~15 ms
 * `troupe answer`. A blocking `writeSync` is also whole by construction: a slow reader slows the
 * writer, and nothing is left queued in the process when it exits (Bun's pipe stream queued
 * what the reader had not taken, and `process.exit` threw it away: exactly 64 KiB arrived).
 *
 * A descriptor someone made non-blocking (a parent sharing it, or Ink's own `process.stdout`
 * once the dashboard ran) answers EAGAIN when full: from then on this sink hands its bytes to
 * the Node stream, which waits for the descriptor, and tracks that stream's queue so that
 * main.ts still waits for it before exiting.
 */
export class Sink {
  /** The Node stream, once a write would have blocked a non-blocking descriptor. */
  private stream: NodeJS.WritableStream | null = null;
  /** A stream write returned false and no `drain` has come since: bytes are queued in this process. */
  private backlog = false;
  private closed = false;
  private waiters: (() => void)[] = [];
  private closeHandlers: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WritableStream,
  ) {}

  /** Whether the descriptor is a terminal (for colour), without building the Node stream. */
  get isTTY(): boolean {
    // loaded here: node:tty costs ~2 ms of every start, and only `logs` asks
    const { isatty } = require("node:tty") as typeof import("node:tty");
    return isatty(this.fd);
  }

  /** Writes `text`; the promise resolves once nothing of it is queued in this process. */
  write(text: string): Promise<void> {
    if (this.closed || text === "") return this.flushed();
    if (this.stream) {
      if (!this.stream.write(text)) this.backlog = true;
      return this.flushed();
    }
    const bytes = Buffer.from(text);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        if (!this.toStream().write(bytes.subarray(done))) this.backlog = true;
      } else {
        this.readerGone(code);
      }
    }
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

  private toStream(): NodeJS.WritableStream {
    const stream = this.nodeStream();
    stream.on("drain", () => {
      this.backlog = false;
      this.wake();
    });
    // Without a listener Bun prints the error with a stack and exits 1.
    stream.on("error", (err: NodeJS.ErrnoException) => this.readerGone(err.code));
    this.stream = stream;
    return stream;
  }

  /** A reader that went away (`| head -1`) is normal use, not an error; nothing more is written. */
  private readerGone(code: string | undefined): void {
    this.closed = true;
    this.backlog = false;
    this.wake();
    if (code === "EPIPE") for (const h of this.closeHandlers) h();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export const stdout = new Sink(1, () => process.stdout);
export const stderr = new Sink(2, () => process.stderr);

/** Resolves when stdout and stderr hold nothing queued: only then may the process exit. */
export function flushAll(): Promise<void> {
  return Promise.all([stdout.flushed(), stderr.flushed()]).then(() => undefined);
}
