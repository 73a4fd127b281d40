import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { excludeStateDir, type Workspace } from "../workspace.ts";
import { selfBinDir, selfCommand } from "../self.ts";
import { createStore } from "../store/index.ts";
import { ProcessLock } from "./lock.ts";
import { formatLockFile, lockFilePath } from "../lock-file.ts";
import { reportConfigWarningsTo } from "../json-config.ts";
import { Logger } from "../events/log.ts";
import { keepFilesPrivate, tightenModes } from "../file-modes.ts";
import { createServices } from "../services/create.ts";
import { buildRouter } from "./routes/index.ts";
import { serve } from "./server.ts";
import { idleExitMs, watchWorkspace } from "./lifecycle.ts";
import { IdleExit } from "./idle.ts";
import { isLive } from "../protocol/status.ts";

/** Lifecycle events stored between two prunes of the event log (which keeps the newest 50,000). */
const PRUNE_EVERY = 1000;

/** Where no executable named `troupe` runs this daemon, agents still need one on PATH: a shim that runs this one. */
function binDir(ws: Workspace): string {
  const compiled = selfBinDir();
  if (compiled) return compiled;
  const dir = join(ws.stateDir, "bin");
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, "troupe");
  const quoted = selfCommand().map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  writeFileSync(shim, `#!/bin/sh\nexec ${quoted} "$@"\n`);
  chmodSync(shim, 0o700);
  return dir;
}

export interface RunningDaemon {
  stopped: Promise<void>;
}

/**
 * Runs the workspace daemon in this process until asked to stop. Returns null when another
 * daemon holds the workspace lock (that one serves; this one has nothing to do).
 */
export function runDaemon(ws: Workspace): RunningDaemon | null {
  // a daemon never brings back a deleted workspace (an agent still asking from inside it)
  if (!existsSync(ws.root)) throw new TroupeError("workspace_missing", `the workspace folder ${ws.root} no longer exists`);
  // agents' environments (API keys), prompts and output: this user only, whatever the daemon creates
  keepFilesPrivate();
  mkdirSync(ws.stateDir, { recursive: true, mode: 0o700 });
  chmodSync(ws.stateDir, 0o700);
  const lock = ProcessLock.tryAcquire(lockFilePath(ws.stateDir), formatLockFile(process.pid, ws.socket));
  if (!lock) return null;
  tightenModes(ws.stateDir);
  excludeStateDir(ws.root);
  const log = new Logger(join(ws.stateDir, "daemon.log"));
  reportConfigWarningsTo((w) => log.warn(w));
  let store;
  try {
    store = createStore(join(ws.stateDir, "troupe.db"), log);
  } catch (err) {
    lock.release();
    throw err instanceof TroupeError ? err : new TroupeError("internal", `cannot open the store: ${(err as Error).message}`, { cause: err });
  }
  const core = createServices({ ws, store, log, binDir: binDir(ws), stopDaemon: () => shutdown() });
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log.info("daemon stopping (agents keep running)");
    const steps = [() => idle.stop(), () => unwatchWorkspace(), () => server.stop()];
    for (const step of steps) {
      try {
        step();
      } catch (err) {
        log.error("stopping", err);
      }
    }
    const finish = () => {
      try {
        store.close();
      } finally {
        lock.release();
        resolveStopped();
      }
    };
    core.shutdown().then(finish, (err) => {
      log.error("stopping agents' watchers", err);
      finish();
    });
  };
  const router = buildRouter(core.services);
  core.start();
  store.events.prune();
  // every event stands for a write (output tells the checkpoints itself): checkpoint soon, off this thread
  core.bus.subscribe((p) => p.event.type !== "agent:output" && store.checkpoints.wrote());
  // every agent:updated is logged whole; keep the log bounded while the daemon runs for weeks,
  // counted in appends rather than on a timer, so an idle daemon never wakes for it
  let appended = 0;
  core.bus.subscribe((p) => {
    if (p.id !== null && ++appended >= PRUNE_EVERY) {
      appended = 0;
      store.events.prune();
    }
  });
  const idle = new IdleExit(idleExitMs(ws.stateDir, log), (why) => {
    log.info(`daemon exits: ${why}`);
    shutdown();
  });
  // an event may end a hold (an agent ends, a deadline passes): the idle clock starts from it
  core.bus.subscribe((p) => p.event.type !== "agent:output" && idle.touch());
  let steppingAside = false;
  const server = serve({ socket: ws.socket, root: ws.root }, router, core.services, log, {
    onRequest: () => idle.touch(),
    onNewerClient: (version) => {
      if (steppingAside) return;
      steppingAside = true;
      log.info(`a client of a newer troupe (${version}) asked; stopping so that it starts its own daemon (agents keep running)`);
      setTimeout(shutdown, 10);
    },
  });
  idle.hold("live agents", () => store.sessions.open().length > 0 || store.agents.list().some((a) => isLive(a.status)));
  idle.hold("pending retries", () => store.agents.nextRetryAt() !== null);
  idle.hold("conversation deadlines", () => store.conversations.nextExpiry() !== null);
  // an enabled flow is a promise to run at its time: the daemon stays for it
  idle.hold("enabled flows", () => core.flows.anyEnabled());
  idle.hold("connected clients", () => server.activeRequests() > 0);
  idle.start();
  const unwatchWorkspace = watchWorkspace(ws, () => {
    log.info(`the workspace ${ws.root} (or its .troupe folder) was deleted; daemon exits`);
    shutdown();
  }, log);
  log.info(`daemon ${process.pid} serving ${ws.root} on ${ws.socket}`);
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  process.on("unhandledRejection", (err) => log.error("unhandled rejection", err));
  process.on("uncaughtException", (err) => log.error("uncaught exception", err));
  if (!existsSync(ws.socket)) throw new TroupeError("internal", `socket ${ws.socket} was not created`);
  return { stopped };
}
