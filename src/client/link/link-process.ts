import { spawn, type ChildProcess } from "node:child_process";

/**
 * The process at the other end of a link (`ssh`, or `$TROUPE_SSH_COMMAND` run by `sh`, which
 * may be a wrapper with ssh its child): started as the leader of a process group of its own,
 * so that ending the link ends all of it, never the wrapper alone with ssh left orphaned.
 */
export function spawnLink(argv: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env, detached: true });
  if (child.pid !== undefined) track(child);
  return child;
}

/** Links not ended yet: ended when this process exits, whatever it forgot to close. */
const live = new Set<ChildProcess>();
let hooked = false;

function track(child: ChildProcess): void {
  live.add(child);
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    for (const c of live) endLinkProcess(c);
  });
}

/**
 * Ends a link's process and whatever it started (its group, when it leads one: spawnLink's),
 * with SIGTERM, once. A group outlives its leader while a member runs (a wrapper killed with ssh
 * still up), so the group is signalled even after the leader ended: a link ends it as soon as it
 * sees the leader go, before its pid could be reused.
 */
export function endLinkProcess(child: ChildProcess): void {
  const pid = child.pid;
  if (pid !== undefined && live.delete(child)) {
    try {
      process.kill(-pid, "SIGTERM");
      return;
    } catch {
      // no such group (every member gone): nothing left to end
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
}
