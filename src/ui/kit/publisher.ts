/**
 * Change notification for state kept outside React: many changes a second become at most
 * `hz` notifications, so a stream of output never renders more than ~30 frames a second.
 */
export class Publisher {
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = 0;
  /** Bumped on every notification; a useSyncExternalStore snapshot. */
  version = 0;

  /** `beforeFlush` runs first at each notification: where batched work gets applied. */
  constructor(
    private readonly hz = 30,
    private readonly beforeFlush?: () => void,
  ) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getVersion = (): number => this.version;

  /** Notifies soon, coalescing with any other change until then. */
  changed(): void {
    if (this.timer) return;
    const wait = Math.max(0, 1000 / this.hz - (performance.now() - this.last));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Notifies now (a person's action should not wait for the next tick). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.last = performance.now();
    this.beforeFlush?.();
    this.version++;
    for (const fn of this.listeners) fn();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
