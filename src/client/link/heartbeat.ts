/**
 * A link's own heartbeat (issue 21): a host that froze, a laptop that slept, a network that went
 * away leave a link silent rather than closed. ssh's keep-alives (ServerAliveInterval 5 × 3) end
 * such a link after 15–20 s; this ends it within seconds. While an exchange is open (an event
 * stream, a request awaiting its reply) the link is checked every `everyMs`, and each check sends
 * a PING, which the proxy answers at once whatever its daemon is doing (and which tells the proxy
 * its client lives: it ends a link whose client fell silent, `PROXY_DEADLINE`); `deadMs` of checks
 * in a row with nothing heard and the link is dead. With nothing open it is not checked at all:
 * no timer, no frame, nothing for an idle dashboard to pay.
 *
 * Silence is counted in checks, not in clock time, so a client whose own event loop stalled (a
 * long render) loses one check, never the link: the bytes that arrived meanwhile are read after
 * the late check, and the next one finds them.
 */

export interface HeartbeatOptions {
  /** How often an open link is checked (and, on the client's side, pinged). */
  everyMs: number;
  /** How long without a byte before the link counts as dead (a multiple of everyMs). */
  deadMs: number;
}

/** A PING every 2 s, dead after 6 s without a byte: noticed 6–8 s after the last one. */
export const HEARTBEAT: HeartbeatOptions = { everyMs: 2_000, deadMs: 6_000 };

/**
 * The proxy's side (src/client/link/proxy.ts): a client that has pinged once pings every 2 s while
 * it has an exchange open; 15 s without a byte from it, with exchanges in flight, and it is gone
 * (a laptop asleep, a network changed: sshd would keep the session for hours of TCP keep-alive).
 * Looser than the client's, so a client's own stall (a long render) costs it no link.
 */
export const PROXY_DEADLINE: HeartbeatOptions = { everyMs: 5_000, deadMs: 15_000 };

export class Heartbeat {
  private timer: ReturnType<typeof setInterval> | null = null;
  private heardSince = false;
  private silent = 0;
  private readonly limit: number;

  /** `ping` is sent at each check the link survives (a no-op for a side that only listens). */
  constructor(
    private readonly opts: HeartbeatOptions,
    private readonly ping: () => void,
    private readonly dead: () => void,
  ) {
    this.limit = Math.max(1, Math.ceil(opts.deadMs / opts.everyMs));
  }

  get running(): boolean {
    return this.timer !== null;
  }

  /** Bytes came from the far end: it is alive. Called for every read, so it only sets a flag. */
  heard(): void {
    this.heardSince = true;
  }

  /** Checks from now on (an exchange opened); a running heartbeat goes on as it was. */
  start(): void {
    if (this.timer) return;
    this.silent = 0;
    this.heardSince = false;
    this.timer = setInterval(() => this.check(), this.opts.everyMs);
    // the open exchange keeps a process alive, never the heartbeat
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** No more checks (nothing open, or the link ended). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    if (this.heardSince) this.silent = 0;
    else if (++this.silent >= this.limit) {
      this.stop();
      return this.dead();
    }
    this.heardSince = false;
    this.ping();
  }
}
