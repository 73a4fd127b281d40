import type { Agent } from "../../protocol/entities.ts";
import type { Flow } from "../../protocol/flow.ts";
import { sanitize } from "../../output/sanitize.ts";

/** One flow as the flows view shows it: every cell is text, so the view only lays them out. */
export interface FlowRow {
  name: string;
  enabled: boolean;
  cron: string;
  /** When it runs next ("off" when disabled, "-" when the expression has no future time). */
  next: string;
  /** When it last ran and what that did, with its agent's name and status when it started one. */
  last: string;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/**
 * A time in the dashboard's local time: "14:05" today, "Nov 24 03:00" another day. Absolute, not
 * "in 5m", so a row reads the same until the flow changes and nothing has to tick.
 */
export function flowTime(ms: number, now: number): string {
  const d = new Date(ms);
  const hm = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  if (d.toDateString() === new Date(now).toDateString()) return hm;
  const month = d.toLocaleString("en", { month: "short" });
  const year = d.getFullYear() === new Date(now).getFullYear() ? "" : ` ${d.getFullYear()}`;
  return `${month} ${d.getDate()}${year} ${hm}`;
}

/** The outcome as the daemon put it, with the agent it started named as it is now. */
function lastRun(f: Flow, agents: Readonly<Record<string, Agent>>, now: number): string {
  if (f.lastRunAt === null) return "never";
  const agent = f.lastAgentId ? agents[f.lastAgentId] : undefined;
  const what = agent ? `@${agent.name} ${agent.status}` : (f.lastOutcome ?? "");
  return sanitize(`${flowTime(f.lastRunAt, now)} ${what}`.trim());
}

export function flowRow(f: Flow, agents: Readonly<Record<string, Agent>>, now: number): FlowRow {
  const next = !f.enabled ? "off" : f.nextRunAt === null ? "-" : flowTime(f.nextRunAt, now);
  return { name: f.name, enabled: f.enabled, cron: sanitize(f.cron), next, last: lastRun(f, agents, now) };
}
