import type { Agent } from "../../protocol/entities.ts";
import { STATUS, isLive } from "../../protocol/status.ts";

/** 45s, 12m, 3h, 2d. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** Milliseconds until `formatElapsed(ms)` reads differently: "11s" in a second, "3m" within a minute. */
export function elapsedChangesIn(ms: number): number {
  if (ms < 1000) return 1000 - ms; // "0s", also while this clock is behind the daemon's
  const unit = ms < 60_000 ? 1000 : ms < 3_600_000 ? 60_000 : ms < 86_400_000 ? 3_600_000 : 86_400_000;
  return unit - (ms % unit);
}

/** Whether the agent's elapsed time still runs (else it is fixed at its last update). */
export const elapsedRuns = (a: Agent): boolean => isLive(a.status) || STATUS[a.status].needsPerson;

/** How long the agent has been going, or went. */
export function agentElapsed(a: Agent, now: number): number {
  return (elapsedRuns(a) ? now : a.updatedAt) - a.createdAt;
}
