import type { Store } from "../../store/index.ts";
import { DeadlineTimer } from "./deadline-timer.ts";

/**
 * Starts each pending retry at its `retry_at`, a deadline kept in the store: a daemon that stops
 * meanwhile leaves it to the next, which starts overdue ones at once. One timer at the nearest.
 */
export class RetryScheduler {
  private readonly timer: DeadlineTimer;

  constructor(store: Store, run: (agentId: string) => void, onError: (err: unknown) => void) {
    this.timer = new DeadlineTimer(
      () => store.agents.nextRetryAt(),
      (now) => {
        for (const id of store.agents.retryDue(now)) run(id);
      },
      onError,
    );
  }

  schedule(): void {
    this.timer.schedule();
  }

  shutdown(): void {
    this.timer.shutdown();
  }
}
