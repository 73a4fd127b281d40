/** Something that keeps the daemon up while it says so. */
export interface IdleHold {
  name: string;
  busy(): boolean;
}

/**
 * Exits the daemon after `idleMs` with no request and nothing holding it. Holds are a registry:
 * the daemon registers live agents, pending deadlines and connected clients, and each later
 * service with its own deadlines (retries, quota resets, flows) adds one more `hold`.
 * One timer, at the real deadline: a request, an event or a client leaving only stamps the time
 * (`touch`). A held daemon looks again one idle period later, not sooner: a hold ends with an
 * event (an agent ends, a client leaves, a deadline passes), which stamps the time, so the exit
 * comes `idleMs` after it; a hold that ended without one is counted from when it was seen ended
 * (at most two idle periods after it).
 */
export class IdleExit {
  private readonly holds: IdleHold[] = [];
  private lastActivity = Date.now();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wasHeld = false;
  /** When a check last found the daemon held. */
  private heldAt = 0;

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
    const now = Date.now();
    if (this.holds.some((h) => h.busy())) {
      this.wasHeld = true;
      this.heldAt = now;
      this.arm(this.idleMs);
      return;
    }
    if (this.wasHeld) {
      // quiet time counts from what ended the hold (a touch since it was seen held), else from now
      this.wasHeld = false;
      if (this.lastActivity <= this.heldAt) this.lastActivity = now;
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
