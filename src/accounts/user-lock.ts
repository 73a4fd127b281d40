import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { TroupeError } from "../errors.ts";
import { tryLock } from "../runtime/flock.ts";

const WAIT_MS = 10_000;
const STEP_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` holding the exclusive flock on `path`, waiting for it (up to 10 s) while another
 * process of the user holds it. Synchronous on purpose: the failover decision is made inside a
 * run's end, which is synchronous, and every holder only reads and writes one small file.
 */
export function withUserLock<T>(path: string, fn: () => T): T {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + WAIT_MS;
  let held;
  while (!(held = tryLock(path))) {
    if (Date.now() > deadline) throw new TroupeError("timeout", `${path} stayed locked for ${WAIT_MS / 1000}s by another troupe process`);
    Atomics.wait(pause, 0, 0, STEP_MS);
  }
  try {
    return fn();
  } finally {
    held.release();
  }
}
