import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import type { Workspace } from "../workspace.ts";
import { keepFilesPrivate } from "../file-modes.ts";
import { formatLockFile, lockFilePath } from "../lock-file.ts";
import { ProcessLock } from "./lock.ts";

/**
 * The workspace's lock, taken before the daemon's code loads: of thirty daemons started at once
 * (thirty clients that found none), the losers exit without loading the store, the services and
 * the routes, which cost a Deno daemon ~200 ms of CPU each (docs/performance.md, "Deno").
 * Null when another live daemon holds it. The state folder is made first, this user's alone
 * (agents' environments, prompts and output), and never a deleted workspace brought back (an
 * agent still asking from inside it).
 */
export function claimWorkspace(ws: Workspace): ProcessLock | null {
  if (!existsSync(ws.root)) throw new TroupeError("workspace_missing", `the workspace folder ${ws.root} no longer exists`);
  keepFilesPrivate();
  mkdirSync(ws.stateDir, { recursive: true, mode: 0o700 });
  chmodSync(ws.stateDir, 0o700);
  return ProcessLock.tryAcquire(lockFilePath(ws.stateDir), formatLockFile(process.pid, ws.socket));
}
