/**
 * A response whose body ends when `signal` aborts, however long after the fetch resolved.
 *
 * Deno's fetch ends a response body on abort through the Request's own signal, which follows
 * the caller's signal through a WeakRef only (`createDependentAbortSignal` in ext/web's
 * 03_abort_signal.js keeps a dependent signal alive for its event listeners, not for the abort
 * algorithm fetch adds). Nothing else holds that Request once fetch has resolved, so after a
 * garbage collection `abort()` reaches nothing: the body keeps streaming and a reader waiting on
 * it waits on (Deno 2.9.6). The dashboard closes its event stream this way to open it again
 * with another output filter; on Deno it then kept reading the old stream, without the newly
 * selected agent's output (tests/runtime/contract.test.ts, tests/integration/output-filter.test.ts).
 *
 * Here the caller's signal holds an event listener of ours, which it keeps, and that listener
 * errors the body it hands out (a read waiting on it rejects with the signal's reason, as on Bun)
 * and cancels Deno's body, which closes the connection.
 */
export function bodyEndsOnAbort(res: Response, signal: AbortSignal): Response {
  const inner = res.body;
  if (!inner) return res;
  const reader = inner.getReader();
  let out!: ReadableStreamDefaultController<Uint8Array>;
  const onAbort = (): void => {
    try {
      out.error(signal.reason);
    } catch {
      // closed already
    }
    reader.cancel(signal.reason).catch(() => {});
  };
  const done = (): void => signal.removeEventListener("abort", onAbort);
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        out = c;
      },
      pull: async (c) => {
        let r: Awaited<ReturnType<typeof reader.read>>;
        try {
          r = await reader.read();
        } catch (err) {
          done();
          if (!signal.aborted) c.error(err);
          return;
        }
        if (signal.aborted) return; // errored by onAbort already
        if (r.done) {
          done();
          c.close();
        } else c.enqueue(r.value);
      },
      cancel: (reason) => {
        done();
        return reader.cancel(reason);
      },
    },
    // read from Deno's body only when our reader asks, as the body it replaces
    { highWaterMark: 0 },
  );
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort(); // aborted between the fetch resolving and here
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
