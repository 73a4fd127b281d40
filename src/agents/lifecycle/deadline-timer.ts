/**
 * One timer at the nearest deadline, as the stopper keeps one: `next()` reads the nearest from
 * the store (null: none, no timer at all), `due()` acts on what is due and the timer is set again.
 * Nothing runs while there is no deadline.
 */
export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the timer fires. */
  private at: number | null = null;
  private closed = false;

  constructor(
    private readonly next: () => number | null,
    private readonly due: (now: number) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Re-reads the nearest deadline; call after writing one. */
  schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = null;
    const at = this.next();
    if (at === null) return;
    this.arm(at);
  }

  /** One new deadline: the timer moves only when it comes first (no re-reading of every other). */
  add(at: number): void {
    if (this.closed || (this.at !== null && this.at <= at)) return;
    if (this.timer) clearTimeout(this.timer);
    this.arm(at);
  }

  private arm(at: number): void {
    this.at = at;
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1));
  }

  shutdown(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = null;
  }

  private fire(): void {
    this.timer = null;
    this.at = null;
    if (this.closed) return;
    try {
      this.due(Date.now());
    } catch (err) {
      this.onError(err);
    }
    this.schedule();
  }
}
