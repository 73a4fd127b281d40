import { dlopen, FFIType } from "bun:ffi";
import type { TryLockFd } from "../contract.ts";

const LOCK_EX = 2;
const LOCK_NB = 4;

let libc: { symbols: { flock: (fd: number, op: number) => number } } | null = null;

export const tryLockFd: TryLockFd = (fd) => {
  libc ??= dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  });
  return libc.symbols.flock(fd, LOCK_EX | LOCK_NB) === 0;
};
