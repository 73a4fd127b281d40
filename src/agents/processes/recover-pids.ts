import type { Store } from "../../store/index.ts";
import type { Logger } from "../../events/log.ts";
import { isProcessAlive, processStartTime } from "../../process-info.ts";
import { readPidFile } from "./launch-detached.ts";
import { findProcesses } from "./find.ts";

/**
 * A daemon killed between starting a session's wrapper and storing its pid leaves an open session
 * without a pid. The wrapper wrote its own pid to a file before starting anything: read it, so the
 * next daemon adopts that process (and completes it when it ends) rather than complete the session
 * at once and leave an agent running that no daemon knows.
 */
export function recoverWrapperPids(store: Store, log: Logger): void {
  for (const s of store.sessions.open()) {
    if (s.pid !== null) continue;
    const pid = readPidFile(s.exitPath);
    if (pid === null || !isProcessAlive(pid, null)) continue;
    // a reused pid is some other process: the wrapper carries the session's marker
    if (s.marker && !findProcesses({ markers: [s.marker], groups: [] }).pids.includes(pid)) continue;
    store.sessions.setPid(s.agentId, s.session, pid, processStartTime(pid));
    if (store.agents.get(s.agentId)?.status === "starting") store.agents.update(s.agentId, { status: "running" });
    log.info(`${s.agentId} session ${s.session}: found its wrapper (pid ${pid}) from its pid file`);
  }
}
