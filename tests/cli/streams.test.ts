import { afterEach, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { Sink, verbatim } from "../../src/cli/streams.ts";

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

test("a full non-blocking descriptor takes the rest later, in order, and flushed() waits for it", async () => {
  const { path, readFd, writeFd } = nonBlockingPipe();
  const sink = new Sink(writeFd, (bytes) => writeSync(writeFd, bytes));
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(5, "0")} ${"x".repeat(40)}\n`);
  // far more than a pipe holds (64 KiB): the writes past it would block, and get EAGAIN
  for (const l of lines) void sink.write(l);
  let flushed = false;
  const done = sink.flushed().then(() => (flushed = true));
  expect(flushed).toBe(false);

  // the reader comes only now, and reads slowly: everything past the pipe's 64 KiB waited in the sink
  const slowCat = `const fd = require("fs").openSync(process.argv[1], "r"); const b = Buffer.alloc(8192); let n;
    while ((n = require("fs").readSync(fd, b)) > 0) { process.stdout.write(b.subarray(0, n)); Bun.sleepSync(1); }`;
  const reader = Bun.spawn([process.execPath, "-e", slowCat, path], { stdout: "pipe" });
  const text = new Response(reader.stdout).text();
  await done;
  closeSync(writeFd);
  closeSync(readFd);
  expect(await text).toBe(lines.join(""));
});

// issue 32: the CLI printed what agents wrote (an error, a file name, a message) with its escapes
test("every string written is sanitised (newlines and tabs kept); only a verbatim write keeps its bytes", async () => {
  dir = mkdtempSync(join(tmpdir(), "troupe-sink-"));
  const path = join(dir, "out");
  const fd = openSync(path, "w");
  const sink = new Sink(fd, (bytes) => writeSync(fd, bytes));
  await sink.write("troupe: \x1b]0;PWNED\x07\x1b[2Jboom\x9b2J\u202e\n\tnext\n");
  await sink.write(verbatim("\x1b[31mtroupe's own colour\x1b[39m\n"));
  closeSync(fd);
  expect(readFileSync(path, "utf8")).toBe("troupe: boom\n\tnext\n\x1b[31mtroupe's own colour\x1b[39m\n");
});

test("the writes past the sanitiser are the three documented ones (docs/security.md): --json, logs --raw, logs's own colours", () => {
  const root = join(import.meta.dir, "../..");
  const users = [...new Bun.Glob("src/**/*.{ts,tsx}").scanSync(root)].filter((f) => !f.endsWith("cli/streams.ts") && readFileSync(join(root, f), "utf8").includes("verbatim(")).sort();
  // a new one is a decision: say why in docs/security.md, then add it here
  expect(users).toEqual(["src/cli/command.ts", "src/cli/logs.ts"]);
});
