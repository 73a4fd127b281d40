import { SECURITY_HEADERS } from "./pages.ts";

/**
 * A comment on an event stream this often: over TCP a phone that slept or changed networks
 * leaves a half-open connection that only a write finds out, and the daemon's stream (a Unix
 * socket's, which needs none) says nothing while idle.
 */
const HEARTBEAT_MS = 20_000;
const HEARTBEAT = new TextEncoder().encode(":\n\n");

/** The streams open per login: a revoked or expired login's are cut at once (`endStreams`). */
const open = new Map<string, Set<() => void>>();

/** Cuts every event stream of a login that ended. */
export function endStreams(loginId: string): void {
  for (const cut of open.get(loginId) ?? []) cut();
  open.delete(loginId);
}

/**
 * A daemon's event stream as the page gets it: with a heartbeat, and ended with its login. When
 * the browser goes (a write fails, or it cancels) the daemon's stream is cancelled too, so no
 * subscription outlives its page.
 */
export function keptOpen(res: Response, loginId: string): Response {
  if (!res.ok || !res.body) return res;
  const upstream = res.body.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  let cut: () => void = () => {};
  const done = () => {
    clearInterval(timer);
    const mine = open.get(loginId);
    mine?.delete(cut);
    if (mine?.size === 0) open.delete(loginId);
    void upstream.cancel().catch(() => {});
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      cut = () => {
        done();
        try {
          controller.close();
        } catch {}
      };
      if (!open.has(loginId)) open.set(loginId, new Set());
      open.get(loginId)!.add(cut);
      timer = setInterval(() => {
        try {
          controller.enqueue(HEARTBEAT);
        } catch {
          done();
        }
      }, HEARTBEAT_MS);
    },
    async pull(controller) {
      try {
        const { done: ended, value } = await upstream.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch {
        done();
        try {
          controller.close();
        } catch {}
      }
    },
    cancel: done,
  });
  return new Response(body, { status: res.status, headers: { ...SECURITY_HEADERS, "content-type": res.headers.get("content-type") ?? "text/event-stream" } });
}
