import { afterEach, expect, test } from "bun:test";
import { closeSync, constants, createWriteStream, mkdtempSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { Sink } from "../../src/cli/streams.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A FIFO whose write end is non-blocking, as a descriptor shared with Ink or a Node parent is. */
function nonBlockingPipe(): { path: string; readFd: number; writeFd: number } {
  dir = mkdtempSync(join(tmpdir(), "troupe-sink-"));
  const path = join(dir, "fifo");
  if (Bun.spawnSync(["mkfifo", path]).exitCode !== 0) throw new Error("mkfifo failed");
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { path, readFd, writeFd };
}

test("a full non-blocking descriptor hands the rest to a stream, in order, and flushed() waits for it", async () => {
  const { path, readFd, writeFd } = nonBlockingPipe();
  const sink = new Sink(writeFd, () => createWriteStream("", { fd: writeFd, autoClose: false }));
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(5, "0")} ${"x".repeat(40)}\n`);
  // far more than a pipe holds (64 KiB): the writes past it would block, and get EAGAIN
  for (const l of lines) void sink.write(l);
  let flushed = false;
  const done = sink.flushed().then(() => (flushed = true));
  expect(flushed).toBe(false);

  // the reader comes only now: everything past the pipe's 64 KiB waited in the stream
  const reader = Bun.spawn(["cat", path], { stdout: "pipe" });
  const text = new Response(reader.stdout).text();
  await done;
  closeSync(writeFd);
  closeSync(readFd);
  expect(await text).toBe(lines.join(""));
});
