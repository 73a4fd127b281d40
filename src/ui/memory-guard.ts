import type { Publisher } from "./kit/publisher.ts";

export interface MemoryGuardOptions {
  budgetBytes: number;
  /** At most one look this often while output comes in. */
  everyMs: number;
  rss: () => number;
  /** A full collection: what the budget triggers. */
  gc: () => void;
  /** A collection of what was allocated since the last one: at every publish, before the frame it draws. */
  gcYoung: () => void;
}

/**
 * JSC collects lazily: while output streams, each frame Ink draws (a cell grid of the whole
 * screen, its strings) is garbage by the next, and JSC lets it pile up to 140 MB of heap capacity
 * and ~200 MB of RSS before collecting (the live heap stays ~45 MB). A young collection at each
 * publish frees one frame's garbage while it is all there is; a full collection when RSS passes
 * the budget frees what was promoted meanwhile. Garbage comes from output, so RSS is looked at
 * when output is published (at most every `everyMs`) and once more after a burst ends (also
 * the one look after the dashboard's start, when its history loads); an idle dashboard is
 * never woken for it.
 */
export function guardMemory(output: Publisher, o: MemoryGuardOptions): () => void {
  let last = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const look = () => {
    last = performance.now();
    if (o.rss() > o.budgetBytes) o.gc();
  };
  const onOutput = () => {
    o.gcYoung();
    if (performance.now() - last >= o.everyMs) look();
    if (trailing) clearTimeout(trailing);
    trailing = setTimeout(() => {
      trailing = null;
      look();
    }, o.everyMs);
    trailing.unref();
  };
  const unsubscribe = output.subscribe(onOutput);
  return () => {
    unsubscribe();
    if (trailing) clearTimeout(trailing);
  };
}

export interface Settler {
  /**
   * A burst of work has ended: the heap is shrunk once, `afterMs` after this or after the last
   * output published since, whichever is later.
   */
  settled(): void;
  stop(): void;
}

/**
 * With the runtime's GC timer off (`quietEnv`), JSC collects only on allocation, so a dashboard
 * that goes idle keeps the garbage of what it last did: after its start (modules run once, the
 * first frames, the agent CLIs' versions) ~85 MB of RSS where ~70 MB is enough. Shrinking once
 * the start's work is done gives it back, and drops code that ran only then. Code that runs
 * again is compiled again, so a shrink waits for output to pause (one amid a stream would
 * re-warm the render path while it is busiest). It runs only after `settled()`: an idle
 * dashboard is never woken for it.
 */
export function settleMemory(output: Publisher, shrink: () => void, afterMs: number): Settler {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      shrink();
    }, afterMs);
    timer.unref();
  };
  const unsubscribe = output.subscribe(() => {
    if (timer) arm();
  });
  return {
    settled: arm,
    stop() {
      unsubscribe();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
