import { TroupeError } from "../errors.ts";
import { sleep } from "../runtime/process.ts";

/**
 * How long a command with no timeout of its own (`troupe signal`, `answer`, `logs -f`) keeps
 * trying to reach a daemon that went away: long enough for the next one to start (its start
 * alone may take 10 s on a loaded machine), short enough that a workspace with no daemon to come
 * back fails in well under a minute.
 */
export const RECONNECT_MS = 30_000;

/** Whether `err` says the daemon went away (no socket, nobody listening, the connection broke, the stream closed). */
function daemonGone(err: unknown): boolean {
  return err instanceof TroupeError && err.code === "daemon_unavailable";
}

/**
 * Runs `fn`, and when the daemon went away meanwhile (the connection broke mid-request, or none
 * answers), tries again until `deadline`; the client's autostart brings a daemon back on the next
 * request. Only for a request that may be sent twice: a read, a wait, or a write the daemon takes
 * once (a signal, an answer). A request that creates something (ask, send, spawn) is sent again
 * only when it never reached a daemon (src/client/http.ts), never after a broken connection.
 */
export async function withReconnect<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
  let delay = 50;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!daemonGone(err) || Date.now() >= deadline) throw err;
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
      delay = Math.min(delay * 2, 500);
    }
  }
}

/**
 * Runs `attempt` (open a stream, follow it) again whenever the daemon goes away under it, until it
 * returns: for a follower with no end of its own but its subject's (`logs -f`). `attempt` calls
 * `connected()` once it is through to a daemon (its stream open, the history read); it gives up
 * with the last error once no daemon answered for RECONNECT_MS. Each attempt gets its own abort
 * signal, aborted when it ends, so a stream it opened is closed.
 */
export async function reconnecting<T>(attempt: (connected: () => void, signal: AbortSignal) => Promise<T>): Promise<T> {
  let downSince: number | null = null;
  let delay = 50;
  const connected = () => {
    downSince = null;
    delay = 50;
  };
  for (;;) {
    const abort = new AbortController();
    try {
      return await attempt(connected, abort.signal);
    } catch (err) {
      downSince ??= Date.now();
      if (!daemonGone(err) || Date.now() - downSince >= RECONNECT_MS) throw err;
      await sleep(delay);
      delay = Math.min(delay * 2, 500);
    } finally {
      abort.abort();
    }
  }
}
