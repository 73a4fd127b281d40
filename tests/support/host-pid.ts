import { readdirSync, readFileSync } from "node:fs";

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/**
 * The machine's pid of the process an agent knows as `inner` (its shell's `$$`): inside troupe's
 * sandbox its own PID namespace numbers it anew, and /proc's NSpid line holds both numbers; the
 * agent's id in its environment tells it from another sandbox's. Undefined when none lives.
 */
export function hostPid(inner: number, agentId: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ns = /^NSpid:\s+(.+)$/m.exec(read(`/proc/${entry}/status`))?.[1]?.trim().split(/\s+/).map(Number);
    if (!ns || ns.at(-1) !== inner) continue;
    if (read(`/proc/${entry}/environ`).split("\0").includes(`TROUPE_AGENT_ID=${agentId}`)) return Number(entry);
  }
  return undefined;
}
