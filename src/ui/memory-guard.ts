import type { Publisher } from "./publisher.ts";

export interface MemoryGuardOptions {
  budgetBytes: number;
  /** At most one look this often while output comes in. */
  everyMs: number;
  rss: () => number;
  gc: () => void;
}

/**
 * JSC collects lazily: while output streams, freed frames pile up to 230+ MB of RSS before it
 * does (the live heap stays ~45 MB). A full collection when RSS passes the budget keeps the
 * dashboard near 150 MB on a shared box. Garbage comes from output, so RSS is looked at when
 * output is published (at most every `everyMs`), and once more after a burst ends; an idle
 * dashboard is never woken for it.
 */
export function guardMemory(output: Publisher, o: MemoryGuardOptions): () => void {
  let last = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const look = () => {
    last = performance.now();
    if (o.rss() > o.budgetBytes) o.gc();
  };
  const onOutput = () => {
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
