import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync } from "node:fs";
import type { PunchHole } from "../contract.ts";

const FALLOC_FL_KEEP_SIZE = 0x01;
const FALLOC_FL_PUNCH_HOLE = 0x02;

type Fallocate = (fd: number, mode: number, offset: number | bigint, len: number | bigint) => number;
let fallocate: Fallocate | null | undefined;

function fallocateFn(): Fallocate | null {
  if (fallocate !== undefined) return fallocate;
  try {
    fallocate =
      process.platform === "linux"
        ? dlopen("libc.so.6", { fallocate: { args: [FFIType.i32, FFIType.i32, FFIType.i64, FFIType.i64], returns: FFIType.i32 } }).symbols.fallocate
        : null;
  } catch {
    fallocate = null;
  }
  return fallocate;
}

/** fallocate(PUNCH_HOLE | KEEP_SIZE) through libc; Linux only (elsewhere false). */
export const punchHole: PunchHole = (path, from, to) => {
  const fn = fallocateFn();
  if (!fn || to <= from) return false;
  const fd = openSync(path, "r+");
  try {
    return fn(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from, to - from) === 0;
  } finally {
    closeSync(fd);
  }
};
