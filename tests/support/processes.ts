import { execFileSync } from "node:child_process";
import { readlinkSync } from "node:fs";

/** The pids of processes whose command line holds `text` (`--`: a text may start with a dash). */
function pidsOf(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", "--", text], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The pids of processes whose command line holds `text` and that work in `cwd` (an agent's worktree): another test's are never among them. */
export const pidsIn = (cwd: string, text: string): number[] => pidsOf(text).filter((p) => readlinkOr(`/proc/${p}/cwd`) === cwd);

function readlinkOr(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
