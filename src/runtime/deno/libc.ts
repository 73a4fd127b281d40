import { Deno, type ForeignSymbols } from "./api.ts";

/**
 * The few libc calls Deno has no API for: fallocate to punch holes, pidfd_open and poll to watch
 * exits, inotify to watch folders without Deno's watcher. Deno.dlopen needs --allow-ffi (troupe runs with -A); opened on first use.
 */
const SYMBOLS = {
  syscall: { parameters: ["i64", "i64", "i64"], result: "i64" },
  fallocate: { parameters: ["i32", "i32", "i64", "i64"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  pipe2: { parameters: ["buffer", "i32"], result: "i32" },
  write: { parameters: ["i32", "buffer", "u64"], result: "i64" },
  read: { parameters: ["i32", "buffer", "u64"], result: "i64" },
  inotify_init1: { parameters: ["i32"], result: "i32" },
  inotify_add_watch: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  inotify_rm_watch: { parameters: ["i32", "i32"], result: "i32" },
  // on a thread of Deno's blocking pool: the event loop goes on while it waits
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
} as const satisfies ForeignSymbols;

/** SYMBOLS as Deno types them (an i64 comes back as a number when it fits, else a bigint). */
export interface Libc {
  syscall(n: bigint, a: bigint, b: bigint): number | bigint;
  fallocate(fd: number, mode: number, offset: bigint, len: bigint): number;
  open(path: Uint8Array, flags: number): number;
  close(fd: number): number;
  pipe2(fds: Int32Array, flags: number): number;
  write(fd: number, buf: Uint8Array, n: bigint): number | bigint;
  read(fd: number, buf: Uint8Array, n: bigint): number | bigint;
  inotify_init1(flags: number): number;
  inotify_add_watch(fd: number, path: Uint8Array, mask: number): number;
  inotify_rm_watch(fd: number, wd: number): number;
  poll(fds: Int32Array, n: bigint, timeoutMs: number): Promise<number>;
}

let libc: Libc | null | undefined;

/** libc's symbols on Linux; null elsewhere or where it cannot be opened. */
export function linuxLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc = Deno.build.os === "linux" ? (Deno.dlopen("libc.so.6", SYMBOLS).symbols as Libc) : null;
  } catch {
    libc = null;
  }
  return libc;
}

/** A NUL-terminated path for open(2). */
export const cString = (s: string): Uint8Array => new TextEncoder().encode(`${s}\0`);
