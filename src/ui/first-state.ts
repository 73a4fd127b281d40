import type { Mirror } from "./mirror/daemon-mirror.ts";

/**
 * How long the first frame waits for the daemon's snapshot once the views have loaded. With the
 * daemon up it comes 10-30 ms later; a frame drawn without it must be drawn again when it comes,
 * and a cold frame costs ~40 ms of CPU: drawing twice showed the agents ~70 ms later. A daemon
 * still starting is not waited for longer than this: the frame says it is connecting.
 */
const SNAPSHOT_WAIT_MS = 100;
/**
 * How long it waits once the daemon has answered: its snapshot is on its way, and at a thousand
 * agents, or on a loaded machine, it may come after SNAPSHOT_WAIT_MS; a "connecting" frame then
 * costs a second cold frame, and tells the person nothing.
 */
const ANSWERED_WAIT_MS = 1_000;

/**
 * Resolves once the mirror has its first snapshot or knows the daemon is down, or after `ms`
 * (`answeredMs` if the daemon has answered by then).
 */
export function firstState(mirror: Mirror, ms = SNAPSHOT_WAIT_MS, answeredMs = ANSWERED_WAIT_MS): Promise<void> {
  const settled = () => mirror.getView().connection.state !== "connecting";
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    let timer = setTimeout(() => {
      if (mirror.answered?.()) timer = setTimeout(done, answeredMs - ms);
      else done();
    }, ms);
    const unsubscribe = mirror.subscribe(() => {
      if (settled()) done();
    });
  });
}
