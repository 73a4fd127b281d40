import type { TryLock } from "../contract.ts";
import { Deno } from "./api.ts";

/** Deno's FsFile.tryLockSync is flock(LOCK_EX | LOCK_NB) on Linux and macOS: a Bun troupe's lock excludes it, and the reverse. */
export const tryLock: TryLock = (path) => {
  const file = Deno.openSync(path, { read: true, append: true, create: true, mode: 0o600 });
  let locked = false;
  try {
    locked = file.tryLockSync(true);
  } finally {
    if (!locked) file.close();
  }
  return locked ? { release: () => file.close() } : null;
};
