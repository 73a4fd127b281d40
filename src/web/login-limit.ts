/** Failed logins a client address may make in a window before it must wait. */
const FAILURES = 5;
const WINDOW_MS = 60_000;
/** Failed logins from every address together in a window (a spread-out guess is slowed too). */
const ALL_FAILURES = 30;
/** Addresses tracked at most: a flood of new ones cannot grow the map without end. */
const MAX_TRACKED = 10_000;

/**
 * Failed logins, rate-limited per client address and overall: a login token has 192 bits, so
 * this is not what keeps a guesser out, but a page that answers each guess at once would invite
 * the flood. `wait` says how long an address must wait (0: it may try).
 */
export class LoginLimit {
  private readonly failures = new Map<string, number[]>();
  private all: number[] = [];

  wait(address: string, now = Date.now()): number {
    const mine = this.recent(this.failures.get(address) ?? [], now);
    this.all = this.recent(this.all, now);
    const full = mine.length >= FAILURES ? mine : this.all.length >= ALL_FAILURES ? this.all : null;
    return full ? Math.max(1, full[0]! + WINDOW_MS - now) : 0;
  }

  failed(address: string, now = Date.now()): void {
    if (this.failures.size >= MAX_TRACKED) this.failures.clear();
    this.failures.set(address, [...this.recent(this.failures.get(address) ?? [], now), now]);
    this.all.push(now);
  }

  private recent(times: number[], now: number): number[] {
    return times.filter((t) => t > now - WINDOW_MS);
  }
}
