import { existsSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import type { Logger } from "../events/log.ts";
import { readWorkspaceConfig } from "../workspace-config.ts";
import type { Workspace } from "../workspace.ts";
import { watchDir } from "../runtime/watch.ts";

const DEFAULT_IDLE_EXIT_MS = 30 * 60_000;

/** TROUPE_IDLE_EXIT_MS, else `daemon.idleExitMinutes` of .troupe/config.json, else 30 minutes; 0 never. */
export function idleExitMs(stateDir: string, log: Logger): number {
  const env = process.env.TROUPE_IDLE_EXIT_MS;
  if (env !== undefined && env !== "") {
    if (/^\d+$/.test(env)) return Number(env);
    log.warn(`TROUPE_IDLE_EXIT_MS=${env} is not a whole number of milliseconds; using the default`);
  }
  try {
    const minutes = readWorkspaceConfig(stateDir).daemon?.idleExitMinutes;
    return minutes === undefined ? DEFAULT_IDLE_EXIT_MS : minutes * 60_000;
  } catch (err) {
    // a broken config refuses spawns with its own message; the daemon keeps the default
    log.warn(`${err instanceof TroupeError ? err.message : String(err)}; idle exit stays at the default`);
    return DEFAULT_IDLE_EXIT_MS;
  }
}

/**
 * Calls `onGone` once when the workspace folder or its .troupe folder is deleted: a daemon
 * serving a deleted workspace would live forever (and an open dashboard would restart it).
 * Through inotify on the folder, so nothing runs until something changes there.
 */
export function watchWorkspace(ws: Workspace, onGone: () => void, log: Logger): () => void {
  let done = false;
  const check = () => {
    if (done || (existsSync(ws.root) && existsSync(ws.stateDir))) return;
    done = true;
    watcher.close();
    onGone();
  };
  // the workspace is the person's folder: a FIFO made there must not hang the daemon (see watchDir)
  const watcher = watchDir(
    ws.root,
    (event) => event === "rename" && check(),
    (err) => {
      log.warn("workspace watch", err);
      check();
    },
  );
  return () => {
    done = true;
    watcher.close();
  };
}
