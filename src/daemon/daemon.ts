import { existsSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import type { Workspace } from "../workspace.ts";
import { Logger } from "../events/log.ts";
import { PartFailed, PartRunner } from "../services/parts.ts";
import { WorkspaceTaken, daemonParts } from "./daemon-parts.ts";

export interface RunningDaemon {
  stopped: Promise<void>;
}

/**
 * Runs the workspace daemon in this process until asked to stop: its parts (daemon-parts.ts)
 * started in order, stopped in reverse; agents keep running. Null when another daemon holds the
 * workspace lock (that one serves; this one has nothing to do). A part that fails to start
 * stops those before it, and the daemon exits with that part's one-line error.
 */
export async function runDaemon(ws: Workspace): Promise<RunningDaemon | null> {
  // a daemon never brings back a deleted workspace (an agent still asking from inside it)
  if (!existsSync(ws.root)) throw new TroupeError("workspace_missing", `the workspace folder ${ws.root} no longer exists`);
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
  const runner = new PartRunner(daemonParts(ws, log, shutdown), "the daemon", (name, err) => log.error(`stopping ${name}`, err));
  try {
    await runner.start();
  } catch (err) {
    if (err instanceof PartFailed && err.reason instanceof WorkspaceTaken) return null;
    log.error(err instanceof Error ? err.message : String(err), err instanceof PartFailed ? err.reason : err);
    throw err;
  }
  if (!stopping) log.info(`daemon ${process.pid} serving ${ws.root} on ${ws.socket}`);
  return { stopped };
}
