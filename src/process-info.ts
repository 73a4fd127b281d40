import { readFileSync } from "node:fs";

/** The kernel's start time of `pid` (clock ticks since boot), to tell it from a reused pid. */
export function processStartTime(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/** The fields of /proc/<pid>/stat after the command name (state first), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name may itself hold spaces and parentheses
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
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
  const fields = statFields(pid);
  if (!fields) return true; // no /proc: kill(0) is all we know
  if (fields[0] === "Z" || fields[0] === "X") return false;
  return startTime === null || fields[19] === startTime;
}

/** Whether any process of the group `pid` leads is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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
