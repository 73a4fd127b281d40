/**
 * How long a task is expected to take, for the quota forecast of the account it starts on
 * (src/accounts/forecast.ts): the median of its phase's finished tasks (from its agent's start to
 * its merge), else the workspace config's `dispatch.taskMinutes`, else 30 minutes.
 */

export const DEFAULT_TASK_MINUTES = 30;

/** A finished task of the phase: when its agent started, and when it was merged. */
export interface FinishedTask {
  startedAt: number;
  mergedAt: number;
}

export function expectedTaskMs(finished: readonly FinishedTask[], configMinutes: number | undefined): number {
  const spans = finished.map((t) => t.mergedAt - t.startedAt).filter((ms) => ms > 0).sort((a, b) => a - b);
  if (!spans.length) return Math.round((configMinutes ?? DEFAULT_TASK_MINUTES) * 60_000);
  const mid = spans.length >> 1;
  return spans.length % 2 ? spans[mid]! : Math.round((spans[mid - 1]! + spans[mid]!) / 2);
}
