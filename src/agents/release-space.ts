import { dlopen, FFIType } from "bun:ffi";

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

/**
 * Frees the disk blocks of bytes [from, to) of a file an agent is still appending to, leaving a
 * hole: the size and every offset stay as they were, so a writer's O_APPEND writes and the byte
 * offsets in the store are untouched, and nothing written meanwhile can be lost (truncating
 * could lose what the agent wrote between the last read and the truncate). Safe to repeat.
 * False where the system or file system cannot (then the file keeps its bytes until the session ends).
 */
export function releaseRange(fd: number, from: number, to: number): boolean {
  const fn = fallocateFn();
  if (!fn || to <= from) return false;
  return fn(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from, to - from) === 0;
}
