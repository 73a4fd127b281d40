import { readFileSync } from "node:fs";

/** The kernel's start time of `pid` (clock ticks since boot), to tell it from a reused pid. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after the command name, which may itself hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

/** Alive, not a zombie, and (when known) the same process that was started. */
export function isProcessAlive(pid: number, startTime: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const state = procState(pid);
  if (state === "Z" || state === "X") return false;
  if (startTime !== null) {
    const now = processStartTime(pid);
    if (now !== null && now !== startTime) return false;
  }
  return true;
}

/** Signals the whole process group an agent leads (it was started with setsid). */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}
