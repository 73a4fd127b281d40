import { join } from "node:path";
import type { Workspace } from "../workspace.ts";
import { Logger } from "../events/log.ts";
import { PartFailed, PartRunner } from "../services/parts.ts";
import { daemonParts } from "./daemon-parts.ts";
import type { ProcessLock } from "./lock.ts";

export interface RunningDaemon {
  stopped: Promise<void>;
}

/**
 * Runs the workspace daemon in this process until asked to stop, holding the workspace's lock
 * (claim.ts): its parts (daemon-parts.ts) started in order, stopped in reverse; agents keep
 * running. A part that fails to start stops those before it, and the daemon exits with that
 * part's one-line error.
 */
export async function runDaemon(ws: Workspace, lock: ProcessLock): Promise<RunningDaemon> {
  const log = new Logger(join(ws.stateDir, "daemon.log"));
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log.info("daemon stopping (agents keep running)");
    void runner.stop().then(resolveStopped);
  };
  const runner = new PartRunner(daemonParts(ws, lock, log, shutdown), "the daemon", (name, err) => log.error(`stopping ${name}`, err));
  try {
    await runner.start();
  } catch (err) {
    log.error(err instanceof Error ? err.message : String(err), err instanceof PartFailed ? err.reason : err);
    throw err;
  }
  if (!stopping) log.info(`daemon ${process.pid} serving ${ws.root} on ${ws.socket}`);
  return { stopped };
}
