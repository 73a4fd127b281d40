import { collectGarbage } from "../agents/cleanup/index.ts";
import type { Logger } from "../events/log.ts";
import type { DAEMON_ENDPOINTS } from "../protocol/api/daemon.ts";
import { API_VERSION } from "../protocol/api/index.ts";
import { BUILD_VERSION } from "../self.ts";
import type { Store } from "../store/index.ts";
import type { Workspace } from "../workspace.ts";
import type { HandlersOf } from "./services.ts";

export interface DaemonHost {
  ws: Workspace;
  store: Store;
  log: Logger;
  startedAt: number;
  /** Stops the daemon (called once the stop request has been answered). */
  stopDaemon: () => void;
}

/** The daemon's own endpoints: health, stop, garbage collection. */
export function daemonApi(h: DaemonHost): HandlersOf<typeof DAEMON_ENDPOINTS> {
  return {
    health: () => ({ ok: true, pid: process.pid, version: BUILD_VERSION, api: API_VERSION, workspace: h.ws.root, startedAt: h.startedAt }),
    stopDaemon() {
      // later, so that the stop request is answered first
      setTimeout(h.stopDaemon, 10);
    },
    gc: (_caller, { dryRun }) => collectGarbage({ ws: h.ws, store: h.store, log: h.log }, dryRun),
  };
}
