import { TroupeError, errorMessage } from "../errors.ts";

/**
 * One part of a long-running process (the daemon, its services): started in the order of its
 * list, stopped in the reverse. Either may be missing: a step taken once at start (a sweep), or
 * a stop that must come later than its start's place would put it (the list says why there).
 * A start that throws undoes what it did itself: only the parts that started are stopped.
 */
export interface Part {
  name: string;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/** A part that failed to start, after the ones started before it were stopped again. */
export class PartFailed extends TroupeError {
  /** What failed at the bottom, under any parts of parts. */
  readonly reason: unknown;

  constructor(
    /** Its name; `services/agents` for a part of a part. */
    readonly part: string,
    err: unknown,
    what: string,
  ) {
    const reason = err instanceof PartFailed ? err.reason : err;
    super(reason instanceof TroupeError ? reason.code : "internal", `${what} could not start (${part}): ${oneLine(errorMessage(reason))}`, { cause: err });
    this.reason = reason;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * Starts a list of parts in order and stops the started ones in reverse. A part that fails to
 * start stops those before it (in reverse) and `start` rejects with a PartFailed; a part that
 * fails to stop is reported and the rest still stop. A start runs without a pause between
 * synchronous parts (only a part that returns a promise is waited for), so nothing else runs
 * between two of them.
 */
export class PartRunner {
  private readonly started: Part[] = [];
  private starting: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly parts: readonly Part[],
    /** Names what the parts make up, for the error: "the daemon". */
    private readonly what: string,
    private readonly onStopError: (part: string, err: unknown) => void,
  ) {}

  /** Once; a stop asked for meanwhile lets the part under way finish and starts no other. */
  start(): Promise<void> {
    this.starting ??= this.startAll();
    return this.starting;
  }

  /** Once, after the start settled: the started parts, last first. */
  stop(): Promise<void> {
    this.stopping ??= (this.starting ?? Promise.resolve()).then(
      () => this.stopAll(),
      () => undefined,
    );
    return this.stopping;
  }

  private async startAll(): Promise<void> {
    for (const part of this.parts) {
      if (this.stopping) return;
      try {
        const pending = part.start?.();
        if (pending) await pending;
      } catch (err) {
        await this.stopAll();
        throw new PartFailed(err instanceof PartFailed ? `${part.name}/${err.part}` : part.name, err, this.what);
      }
      this.started.push(part);
    }
  }

  private async stopAll(): Promise<void> {
    for (let part = this.started.pop(); part; part = this.started.pop()) {
      try {
        await part.stop?.();
      } catch (err) {
        this.onStopError(part.name, err);
      }
    }
  }
}
