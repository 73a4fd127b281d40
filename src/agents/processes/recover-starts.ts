import { existsSync } from "node:fs";
import type { Store } from "../../store/index.ts";
import type { Logger } from "../../events/log.ts";
import { readPidFile } from "./launch-detached.ts";

/** What the agent's failure says of a start a daemon died in. */
const EVIDENCE = "the daemon stopped while it was starting this agent; nothing of it ran";

/**
 * A daemon killed during a start leaves an agent `starting` that no process runs: before its
 * session was recorded (it has no open session), or after, before its wrapper wrote its pid file
 * (recover-pids.ts adopts one that did). Nothing of it ran, so it is started again, as a retry
 * due now after an interruption (src/agents/lifecycle/run-lifecycle.ts): the retry first stops
 * a wrapper that did start late (found by its session's marker), so nothing runs twice. Runs
 * before the session watcher, which would otherwise end such a session as a failed run.
 */
export function recoverUnlaunched(store: Store, log: Logger): void {
  const now = Date.now();
  const open = new Set<string>();
  for (const s of store.sessions.open()) {
    const launched = s.pid !== null || readPidFile(s.exitPath) !== null || existsSync(s.exitPath);
    if (launched) {
      open.add(s.agentId);
      continue;
    }
    store.sessions.end(s.agentId, s.session, null);
  }
  for (const rec of store.agents.list()) {
    if (rec.status !== "starting" || rec.retryAt !== null || open.has(rec.id)) continue;
    store.agents.update(rec.id, { failure: { class: "interrupted", evidence: EVIDENCE, attempt: rec.attempt }, retryAt: now });
    log.info(`${rec.name}: its start was cut off by the daemon's end; starting it again`);
  }
}
