import { readFileSync } from "node:fs";
import { join } from "node:path";

/** `.troupe/daemon.lock`: held (flock) by the workspace's daemon, which writes its pid and socket in it. */
export function lockFilePath(stateDir: string): string {
  return join(stateDir, "daemon.lock");
}

export function formatLockFile(pid: number, socket: string): string {
  return `${pid}\n${socket}\n`;
}

/** What the holder wrote; null when the file is missing or not in that form. */
export function readLockFile(stateDir: string): { pid: number; socket: string } | null {
  try {
    const [pid, socket] = readFileSync(lockFilePath(stateDir), "utf8").split("\n");
    return pid && /^\d+$/.test(pid) && socket ? { pid: Number(pid), socket } : null;
  } catch {
    return null;
  }
}
