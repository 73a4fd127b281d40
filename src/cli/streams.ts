import { writeStdio } from "../runtime/stdio.ts";
import { sanitizeBlock } from "../output/sanitize.ts";

/** The first wait before writing again to a full non-blocking descriptor; it doubles while it stays full. */
const RETRY_FIRST_MS = 1;
const RETRY_MAX_MS = 50;

const utf8 = new TextEncoder();

/**
 * Text that reaches the descriptor exactly as given, past the sanitiser: made only by `verbatim`,
 * so every such write is named where it is made (grep `verbatim(`).
 */
export interface Verbatim {
  readonly verbatim: string;
}

/**
 * `text` to be written as it is, for the few writes that must keep every byte: JSON (`--json`:
 * its own escaping makes it safe, and a script gets the data as stored), `logs --raw` (the bytes
 * as the agent's CLI wrote them, asked for by name), and troupe's own colours around text that
 * was sanitised first (`formatLine`). Anything else is a plain string, and sanitised.
 */
export function verbatim(text: string): Verbatim {
  return { verbatim: text };
}

/**
 * The CLI's stdout and stderr, written straight to file descriptors 1 and 2.
 *
 * Why not `process.stdout`: its first use builds Node's stream machinery, ~8 ms of a ~15 ms
 * `troupe answer`; nor node:fs nor `Buffer`, which cost a Deno start ~20 ms and ~5 ms to load
 * (../runtime/stdio.ts). A blocking write is also whole by construction: a slow reader slows the
 * writer, and nothing is left queued in the process when it exits (Bun's pipe stream queued
 * what the reader had not taken, and `process.exit` threw it away: exactly 64 KiB arrived).
 *
 * A descriptor someone made non-blocking (a parent sharing it, or Ink's own `process.stdout`
 * once the dashboard ran) answers EAGAIN when full: the rest waits here, in order, and is
 * written again shortly (1 ms, doubling to 50 ms while it stays full), and `flushed()` (which
 * main.ts waits for before exiting) resolves once it is all written. No runtime stream is
 * involved: Bun's fs.WriteStream on such a descriptor failed on EAGAIN (an 'error' without a
 * code, every later write failed) and the end of the output was lost under load.
 *
 * Every string written is sanitised here (`sanitizeBlock`: no escape sequence, no control
 * character but newline and tab, no bidi override): the CLI prints what agents, repositories and
 * remotes wrote (names, errors, results, file names, messages), and this is the one place all of
 * it passes, so no command can forget. Only a `Verbatim` passes as it is.
 */
export class Sink {
  /** Bytes written but not yet taken by the descriptor, oldest first. */
  private queue: Uint8Array[] = [];
  private retryMs = RETRY_FIRST_MS;
  private closed = false;
  private waiters: (() => void)[] = [];
  private closeHandlers: (() => void)[] = [];

  /** `writeBytes`: one write to descriptor `fd`, as much as it takes (see WriteStdio). */
  constructor(
    private readonly fd: number,
    private readonly writeBytes: (bytes: Uint8Array) => number,
  ) {}

  /** Whether the descriptor is a terminal (for colour), without touching `process.stdout` (see above). */
  get isTTY(): boolean {
    // loaded here: node:tty costs ~2 ms of every start, and only `logs` asks (getBuiltinModule: an
    // ES module's synchronous import, in Bun and Deno alike; `require` is Bun's alone)
    const { isatty } = process.getBuiltinModule("node:tty") as typeof import("node:tty");
    return isatty(this.fd);
  }

  /** Writes `text`, sanitised unless `verbatim`; the promise resolves once nothing of it is queued in this process. */
  write(text: string | Verbatim): Promise<void> {
    const shown = typeof text === "string" ? sanitizeBlock(text) : text.verbatim;
    if (this.closed || shown === "") return this.flushed();
    this.queue.push(utf8.encode(shown));
    // a queue of more than this one is waiting for the descriptor already
    if (this.queue.length === 1) this.writeQueued();
    return this.flushed();
  }

  /** Resolves when nothing written so far is queued in this process (or the reader is gone). */
  flushed(): Promise<void> {
    if (!this.queue.length || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** `handler` runs when the reader closed its end (EPIPE). */
  onReaderGone(handler: () => void): void {
    this.closeHandlers.push(handler);
  }

  /** Writes the queue until it is empty, the descriptor is full (then again shortly) or the reader is gone. */
  private writeQueued(): void {
    while (this.queue.length && !this.closed) {
      const head = this.queue[0]!;
      let n: number;
      try {
        n = this.writeBytes(head);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN") return this.readerGone(code);
        setTimeout(() => this.writeQueued(), this.retryMs);
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        return;
      }
      this.retryMs = RETRY_FIRST_MS;
      if (n < head.length) this.queue[0] = head.subarray(n);
      else this.queue.shift();
    }
    this.wake();
  }

  /** A reader that went away (`| head -1`) is normal use, not an error; nothing more is written. */
  private readerGone(code: string | undefined): void {
    this.closed = true;
    this.queue = [];
    this.wake();
    if (code === "EPIPE") for (const h of this.closeHandlers) h();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export const stdout = new Sink(1, (bytes) => writeStdio(1, bytes));
export const stderr = new Sink(2, (bytes) => writeStdio(2, bytes));

/** Resolves when stdout and stderr hold nothing queued: only then may the process exit. */
export function flushAll(): Promise<void> {
  return Promise.all([stdout.flushed(), stderr.flushed()]).then(() => undefined);
}
