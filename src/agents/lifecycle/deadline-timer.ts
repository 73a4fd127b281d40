/**
 * One timer at the nearest deadline, as the stopper keeps one: `next()` reads the nearest from
 * the store (null: none, no timer at all), `due()` acts on what is due and the timer is set again.
 * Nothing runs while there is no deadline.
 */
export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
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
    const at = this.next();
    if (at === null) return;
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1));
  }

  shutdown(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fire(): void {
    this.timer = null;
    if (this.closed) return;
    try {
      this.due(Date.now());
    } catch (err) {
      this.onError(err);
    }
    this.schedule();
  }
}
