import { readdirSync, readFileSync } from "node:fs";

/**
 * Kills every process whose HOME is `home` or inside it: what a CLI left running after its run
 * (Cline starts a hub daemon that outlives it). Linux only (/proc); a process that is gone or not
 * ours is skipped. Returns the pids signalled.
 */
export function killProcessesUnder(home: string): number[] {
  const killed: number[] = [];
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return killed;
  }
  for (const pid of pids) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      const h = env.find((e) => e.startsWith("HOME="))?.slice(5);
      if (h === undefined || (h !== home && !h.startsWith(`${home}/`)) || Number(pid) === process.pid) continue;
      process.kill(Number(pid), "SIGKILL");
      killed.push(Number(pid));
    } catch {
      // gone, or another user's
    }
  }
  return killed;
}
