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

/** Clock ticks per second of /proc's start times: 100 on every Linux troupe runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * When `pid` started (epoch ms, to a tick), from its start time and the boot time; null without
 * /proc. For telling whether a reported process came after something, not for exact timing.
 */
export function processStartedAt(pid: number): number | null {
  const ticks = Number(processStartTime(pid));
  let boot: number;
  try {
    boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
  } catch {
    return null;
  }
  return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + (ticks * 1000) / TICKS_PER_SECOND : null;
}

/**
 * Alive, not a zombie, and (when known) the same process that was started. A main thread that
 * ended while other threads of the process still run (a Deno daemon ending: its thread pool
 * outlives the main thread by a moment) shows as a zombie too, but the process still holds its
 * files, locks and socket: it counts as alive until only the main thread is left (num_threads 1).
 */
export function isProcessAlive(pid: number, startTime: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const fields = statFields(pid);
  if (!fields) return true; // no /proc: kill(0) is all we know
  if (fields[0] === "Z" || fields[0] === "X") return Number(fields[17]) > 1;
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

