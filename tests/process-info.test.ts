/**
 * Whether a process is alive, as the client's `daemon stop` and the agents' stops ask it: a
 * process whose main thread ended while its other threads still run (as a Deno daemon's does for
 * a moment while it exits) still holds its files and locks, and is alive.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProcessAlive } from "../src/process-info.ts";
import { waitFor } from "./support/sandbox.ts";

let dir: string | null = null;
let child: ReturnType<typeof Bun.spawn> | null = null;
afterEach(async () => {
  child?.kill("SIGKILL");
  await child?.exited;
  child = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

// a worker thread that runs on, then the main thread ends alone (pthread_exit)
const MAIN_THREAD_ENDS = `
import { dlopen, FFIType } from "bun:ffi";
new Worker(URL.createObjectURL(new Blob(["setInterval(() => {}, 1000)"], { type: "application/javascript" })));
setTimeout(() => dlopen("libc.so.6", { pthread_exit: { args: [FFIType.ptr], returns: FFIType.void } }).symbols.pthread_exit(null), 100);
`;

const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[0];

test.skipIf(process.platform !== "linux")("a process whose main thread ended while another thread runs is alive; once killed, it is not", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-alive-"));
  writeFileSync(join(dir, "main-thread-ends.ts"), MAIN_THREAD_ENDS);
  child = Bun.spawn([process.execPath, join(dir, "main-thread-ends.ts")], { stdout: "ignore", stderr: "ignore" });
  const pid = child.pid;
  expect(isProcessAlive(pid, null)).toBe(true);
  await waitFor("the main thread to end", () => state(pid) === "Z", 10_000);
  expect(isProcessAlive(pid, null)).toBe(true);
  child.kill("SIGKILL");
  await child.exited;
  expect(isProcessAlive(pid, null)).toBe(false);
});
