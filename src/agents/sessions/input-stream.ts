import { closeSync, constants, existsSync, lstatSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * The daemon's side of a session's input stream (the agent's side is the wrapper's feeder,
 * src/agents/processes/launch-detached.ts). A line is a file, `NNN.line`, written whole (a
 * temporary name, then a rename) and then announced with a byte on the FIFO `wake`: the feeder
 * moves it to `sent/` and copies it into the agent's stdin. So a line reaches the agent whole or
 * not at all (a partial line would end a Claude Code run), and where it is tells how far it got:
 * in the folder, not yet fed; in `sent/`, fed; in neither, never written (the daemon died first).
 * `close` (a file, then a wake) ends the stream. Nothing here blocks: the FIFO is opened
 * non-blocking, and a feeder that is gone (or not started yet: it reads the folder first) is
 * simply not woken.
 */

/** Where one line is: waiting for the feeder, fed to the agent, or nowhere (never written). */
export type LineState = "queued" | "fed" | "missing";

const lineName = (seq: number) => `${String(seq).padStart(12, "0")}.line`;

/** Whether the stream takes lines: the session was launched with one and it is not closed. */
export function streamOpen(dir: string): boolean {
  return existsSync(join(dir, "sent")) && !existsSync(join(dir, "close"));
}

/** Writes line `seq` (no newline in `line`) whole, then wakes the feeder. */
export function writeLine(dir: string, seq: number, line: string): void {
  const tmp = join(dir, `.${seq}.tmp`);
  writeFileSync(tmp, `${line}\n`, { mode: 0o600 });
  renameSync(tmp, join(dir, lineName(seq)));
  wake(dir);
}

export function lineState(dir: string, seq: number): LineState {
  if (existsSync(join(dir, lineName(seq)))) return "queued";
  if (existsSync(join(dir, "sent", lineName(seq)))) return "fed";
  return "missing";
}

/**
 * Takes line `seq` back out of the folder before its reader has it: true when it was still
 * waiting there. Only for a stream whose reader claims each line by a rename of its own (the ACP
 * runner, src/acp/inbox.ts), so exactly one of the two has it.
 */
export function withdrawLine(dir: string, seq: number): boolean {
  try {
    renameSync(join(dir, lineName(seq)), join(dir, `.${seq}.withdrawn`));
    return true;
  } catch {
    return false;
  }
}

/** Closes the stream: the feeder ends once it fed what it has, and the agent reads end-of-file. */
export function closeStream(dir: string): void {
  if (!existsSync(dir)) return;
  writeFileSync(join(dir, "close"), "", { mode: 0o600 });
  wake(dir);
}

/** The stream's files, once its session has ended. */
export function removeStream(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * One byte on the FIFO, if a feeder holds it open. A wake more is harmless (the feeder reads the
 * folder again); one lost while the FIFO is full is not missed (the bytes waiting wake it anyway).
 */
export function wake(dir: string): void {
  const path = join(dir, "wake");
  let fd: number;
  try {
    if (!lstatSync(path).isFIFO()) return;
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    // ENOENT: the feeder has not made it yet (it reads the folder first); ENXIO: no feeder holds it
    return;
  }
  try {
    writeSync(fd, "\n");
  } catch {
    // EAGAIN: full of wakes already
  } finally {
    closeSync(fd);
  }
}
