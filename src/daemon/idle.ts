/** Something that keeps the daemon up while it says so. */
export interface IdleHold {
  name: string;
  busy(): boolean;
}

/** How often a held daemon looks again: the exit comes idleMs to idleMs + this after the last hold ends. */
const HOLD_RECHECK_MS = 60_000;

/**
 * Exits the daemon after `idleMs` with no request and nothing holding it. Holds are a registry:
 * the daemon registers live agents, pending deadlines and connected clients, and each later
 * service with its own deadlines (retries, quota resets, flows) adds one more `hold`.
 * One timer, re-armed when it fires (a request only stamps the time): nothing runs while idle
 * but a wake-up per idle period, or per minute while something holds.
 */
export class IdleExit {
  private readonly holds: IdleHold[] = [];
  private lastActivity = Date.now();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wasHeld = false;

  /** `idleMs` 0 never exits. */
  constructor(
    private readonly idleMs: number,
    private readonly onIdle: (why: string) => void,
  ) {}

  hold(name: string, busy: () => boolean): void {
    this.holds.push({ name, busy });
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  start(): void {
    if (this.idleMs > 0) this.arm(this.idleMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.min(ms, 2 ** 31 - 1));
  }

  private check(): void {
    const held = this.holds.some((h) => h.busy());
    if (held || this.wasHeld) {
      // quiet time counts from when the last hold was seen ended, never from before it
      this.wasHeld = held;
      this.lastActivity = Date.now();
      this.arm(held ? Math.min(this.idleMs, HOLD_RECHECK_MS) : this.idleMs);
      return;
    }
    const quiet = Date.now() - this.lastActivity;
    if (quiet < this.idleMs) {
      this.arm(this.idleMs - quiet);
      return;
    }
    this.timer = null;
    this.onIdle(`idle for ${Math.round(quiet / 1000)} s with no agent, deadline or client`);
  }
}
