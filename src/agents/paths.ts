import { join } from "node:path";

/** Where an agent's files live; agents sharing the workspace folder get per-agent paths. */
export function agentPaths(stateDir: string, name: string, worktree: string | null) {
  const own = join(stateDir, "agents", name);
  const base = worktree ? join(worktree, ".troupe") : own;
  return {
    logsDir: join(stateDir, "logs", name),
    inputDir: join(base, "input"),
    signalFile: join(base, "output", "signal.json"),
  };
}

/** This troupe by absolute path in `binDir`, for prompts (a login shell may drop it from PATH). */
export function troupeIn(binDir: string): string {
  return join(binDir, "troupe");
}
