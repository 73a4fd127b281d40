import { TroupeError } from "../../errors.ts";

/**
 * The kernel's limits on what execve() takes (Linux): one argument or `NAME=value` string,
 * its NUL included, is at most 32 pages (MAX_ARG_STRLEN), and all of them with their pointers
 * at most ARG_MAX, a quarter of the stack limit: 2 MiB under the usual 8 MiB stack, the floor
 * assumed here. Past either, spawn fails with E2BIG after the agent was recorded; checked
 * before instead, a spawn that cannot start is refused and leaves nothing behind.
 */
export const MAX_ARG_STRLEN = 32 * 4096;
const MAX_ARGS_TOTAL = 2 * 1024 * 1024;
/** What is added after this check: the sh wrapper around the argv, TROUPE_* and PATH in the environment. */
const ADDED_LATER = 16 * 1024;
const POINTER = 8;

export interface ArgLimits {
  perString: number;
  total: number;
}

/** Throws a clear `bad_request` when `argv` and `env` could not be passed to a new process. */
export function assertWithinArgLimit(argv: string[], env: Record<string, string>, limits: ArgLimits = { perString: MAX_ARG_STRLEN, total: MAX_ARGS_TOTAL }): void {
  let total = ADDED_LATER;
  for (const arg of argv) {
    const size = Buffer.byteLength(arg) + 1;
    if (size > limits.perString) {
      throw new TroupeError("bad_request", `the command line is too long for the kernel: one argument (${preview(arg)}) is ${bytes(size)}, at most ${bytes(limits.perString)} fit; pass long text through a file`);
    }
    total += size + POINTER;
  }
  for (const [key, value] of Object.entries(env)) {
    const size = Buffer.byteLength(key) + 1 + Buffer.byteLength(value) + 1;
    if (size > limits.perString) {
      throw new TroupeError("bad_request", `the environment variable ${key} is too long for the kernel: ${bytes(size)}, at most ${bytes(limits.perString)} fit; pass long text through a file`);
    }
    total += size + POINTER;
  }
  if (total > limits.total) {
    throw new TroupeError("bad_request", `the command line and environment are too long for the kernel: ${bytes(total)}, at most ${bytes(limits.total)} fit; pass long text through a file`);
  }
}

function bytes(n: number): string {
  return `${n.toLocaleString("en-US")} bytes`;
}

function preview(arg: string): string {
  const flat = arg.replace(/\s+/g, " ");
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}
