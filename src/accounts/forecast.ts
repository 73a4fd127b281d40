import type { UsageWindow } from "../protocol/output.ts";

/**
 * When an account's quota runs out at the pace it is used, from the usage windows its provider
 * reported (docs/accounts.md, "Forecast"). A window's pace is the faster of its average since the
 * window began and its pace between the first and the latest report of it: a burst that began
 * late in a window is not averaged away. A window whose pace spends it before its reset runs the
 * account out then; one already used up has it out now, until its reset.
 */

/** A window as the account store keeps it: its latest report, and the first one of the same window (same reset). */
export interface RecordedWindow extends UsageWindow {
  seenAt: number;
  first: { utilization: number; seenAt: number };
}

/** The windows' lengths by the names Claude gives them; a window of unknown length is paced from its reports alone. */
const WINDOW_MS: Record<string, number> = {
  five_hour: 5 * 3_600_000,
  seven_day: 7 * 86_400_000,
  seven_day_opus: 7 * 86_400_000,
  seven_day_sonnet: 7 * 86_400_000,
};

/** Two reports whose resets are less than this apart are of the same window (the reset is rounded to the second, and may drift). */
const SAME_RESET_MS = 60_000;

/** Reports less than this apart give no pace of their own (their difference is rounding). */
const MIN_SPAN_MS = 30_000;

/** Utilization per ms, or null when nothing tells it. */
function pace(w: RecordedWindow): number | null {
  const paces: number[] = [];
  const length = WINDOW_MS[w.window];
  if (length !== undefined) {
    const elapsed = w.seenAt - (w.resetsAt - length);
    if (elapsed > 0) paces.push(w.utilization / elapsed);
  }
  const span = w.seenAt - w.first.seenAt;
  if (span >= MIN_SPAN_MS && w.utilization > w.first.utilization) paces.push((w.utilization - w.first.utilization) / span);
  return paces.length ? Math.max(...paces) : null;
}

/** When the window is spent (`seenAt` when it already is), or null when it lasts to its reset (or is past it). */
function windowRunsOut(w: RecordedWindow, now: number): number | null {
  if (w.resetsAt <= now) return null;
  if (w.utilization >= 1) return w.seenAt;
  const p = pace(w);
  if (!p) return null;
  const out = w.seenAt + (1 - w.utilization) / p;
  return out < w.resetsAt ? Math.round(out) : null;
}

/** When the first of the windows runs out, or null when each lasts to its reset. */
export function runsOutAt(windows: readonly RecordedWindow[], now: number): number | null {
  const outs = windows.map((w) => windowRunsOut(w, now)).filter((t): t is number => t !== null);
  return outs.length ? Math.min(...outs) : null;
}

/** Until when a window that is used up keeps the account out (its reset), or null when none is. */
export function usedUpUntil(windows: readonly RecordedWindow[], now: number): number | null {
  const resets = windows.filter((w) => w.utilization >= 1 && w.resetsAt > now).map((w) => w.resetsAt);
  return resets.length ? Math.max(...resets) : null;
}

/** Whether the account lasts `needMs` from now at its pace. */
export function lasts(windows: readonly RecordedWindow[], needMs: number, now: number): boolean {
  const out = runsOutAt(windows, now);
  return out === null || out > now + needMs;
}

/** The windows with a new report merged in: a window's first report is kept while its reset stays the same. */
export function recordWindows(known: readonly RecordedWindow[], reported: readonly UsageWindow[], now: number): RecordedWindow[] {
  const byName = new Map(known.filter((w) => w.resetsAt > now).map((w) => [w.window, w]));
  for (const r of reported) {
    const prior = byName.get(r.window);
    const first = prior && Math.abs(prior.resetsAt - r.resetsAt) < SAME_RESET_MS ? prior.first : { utilization: r.utilization, seenAt: now };
    byName.set(r.window, { ...r, seenAt: now, first });
  }
  return [...byName.values()];
}
