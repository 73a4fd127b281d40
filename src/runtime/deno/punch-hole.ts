import type { PunchHole } from "../contract.ts";
import { cString, linuxLibc } from "./libc.ts";

const O_WRONLY = 0o1;
const O_CLOEXEC = 0o2000000;
const FALLOC_FL_KEEP_SIZE = 0x01;
const FALLOC_FL_PUNCH_HOLE = 0x02;

/** fallocate(PUNCH_HOLE | KEEP_SIZE) through libc on a descriptor opened here (Deno's files hand out none); Linux only. */
export const punchHole: PunchHole = (path, from, to) => {
  const libc = linuxLibc();
  if (!libc || to <= from) return false;
  const fd = libc.open(cString(path), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw Object.assign(new Error(`cannot open ${path}`), { code: "ENOENT" });
  try {
    return libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, BigInt(from), BigInt(to - from)) === 0;
  } finally {
    libc.close(fd);
  }
};
