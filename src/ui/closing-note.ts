import type { Agent } from "../protocol/entities.ts";
import { STATUS, isLive } from "../protocol/status.ts";

/** What the person reads after quitting: nothing was stopped. */
export function closingNote(agents: readonly Agent[]): string {
  const running = agents.filter((a) => isLive(a.status)).length;
  const waiting = agents.filter((a) => STATUS[a.status].needsPerson).length;
  const facts = [`${running} ${running === 1 ? "agent keeps" : "agents keep"} running`];
  if (waiting) facts.push(`${waiting} ${waiting === 1 ? "waits" : "wait"} for you`);
  return `troupe: dashboard closed; ${facts.join(", ")}. \`troupe\` opens it again, \`troupe ls\` lists them.`;
}
