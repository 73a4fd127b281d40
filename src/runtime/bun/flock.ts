import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync } from "node:fs";
import type { TryLock } from "../contract.ts";

const LOCK_EX = 2;
const LOCK_NB = 4;

let libc: { symbols: { flock: (fd: number, op: number) => number } } | null = null;

/** flock(2) through libc on a file opened here; closing that file lets go of the lock. */
export const tryLock: TryLock = (path) => {
  libc ??= dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  });
  const fd = openSync(path, "a+", 0o600);
  if (libc.symbols.flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd);
    return null;
  }
  return { release: () => closeSync(fd) };
};
