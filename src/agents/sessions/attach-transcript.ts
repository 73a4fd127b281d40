import { appendFileSync, closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { errorMessage } from "../../errors.ts";
import type { Provider } from "../../../providers/types.ts";
import { getProvider } from "../../../providers/index.ts";
import type { Logger } from "../../events/log.ts";
import type { SessionRecord, Store } from "../../store/index.ts";

/** Deno's appendFileSync sets the file to this mode at every call (0666 when none is given), Node's and Bun's only to a new file. */
const PRIVATE = { mode: 0o600 };

/**
 * What an attached session said is kept from the CLI's own transcript of the session, since its
 * screen went to the person's terminal: at attach the transcript's size is noted beside the
 * session's files (`<n>.attach.json`, so a restarted daemon still knows it), and at the session's
 * end what the CLI appended meanwhile is copied into the session's output, only the lines its
 * parser understands (messages, tool calls and results; not the CLI's bookkeeping).
 */

/** Past this, the rest is left in the CLI's transcript and the log says so. */
const MAX_IMPORT_BYTES = 16 * 1024 * 1024;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

const MarkSchema = z.object({ path: z.string().min(1), offset: z.number().int().nonnegative() });

export const markPath = (exitPath: string) => exitPath.replace(/\.exit$/, ".attach.json");

/** Notes where the transcript stands now (its size; 0 when the CLI has not written it yet). */
export function markTranscript(exitPath: string, transcript: string): void {
  let offset = 0;
  try {
    offset = statSync(transcript).size;
  } catch {
    // not written yet: everything in it will be this session's
  }
  writeFileSync(markPath(exitPath), JSON.stringify({ path: transcript, offset }), { mode: 0o600 });
}

/**
 * Appends what the transcript gained since the mark to `stdoutPath` (before the session's last
 * output is stored), once: the mark goes with it. Returns what the log should say when it could not.
 */
export function keepTranscript(exitPath: string, stdoutPath: string, provider: Provider): string | null {
  const mark = markPath(exitPath);
  if (!existsSync(mark)) return null;
  let parsed;
  try {
    parsed = MarkSchema.safeParse(JSON.parse(readFileSync(mark, "utf8")));
  } catch (err) {
    return `${mark} is not JSON: ${errorMessage(err)}`;
  } finally {
    rmSync(mark, { force: true });
  }
  if (!parsed.success) return `${mark} is malformed`;
  const { path, offset } = parsed.data;
  const read = readFrom(path, offset);
  if (typeof read === "string") {
    appendFileSync(stdoutPath, `troupe: the CLI's transcript was not kept: ${read}\n`, PRIVATE);
    return read;
  }
  const lines = read.text.split("\n");
  // a last line without its newline was being written: not a whole line
  if (!read.text.endsWith("\n")) lines.pop();
  const kept = lines.filter((l) => l && provider.parseLine(l, "stdout").some((e) => e.kind !== "raw"));
  const cut = read.more ? ` (the first ${MAX_IMPORT_BYTES / 1024 / 1024} MiB; the rest is in ${path})` : "";
  appendFileSync(stdoutPath, `troupe: what the session said, from the CLI's transcript ${path}${cut}:\n${kept.map((l) => `${l}\n`).join("")}`, PRIVATE);
  return null;
}

/** The bytes after `offset`, up to the cap, from a regular file only (never a FIFO or a device); or why not. */
function readFrom(path: string, offset: number): { text: string; more: boolean } | string {
  try {
    if (!lstatSync(path).isFile()) return `${path} is not a regular file`;
  } catch {
    return `${path} does not exist (the CLI wrote nothing)`;
  }
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    return `cannot open ${path}: ${errorMessage(err)}`;
  }
  try {
    const size = fstatSync(fd).size;
    // a transcript rewritten shorter (compacted) since the mark: all of it is this session's
    const from = size < offset ? 0 : offset;
    const want = Math.min(size - from, MAX_IMPORT_BYTES);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.subarray(0, got).toString("utf8"), more: size - from > MAX_IMPORT_BYTES };
  } finally {
    closeSync(fd);
  }
}

/** An attached session's process ended: what it said is copied from the CLI's transcript, before its last output is stored. */
export function keepAttachedTranscript(store: Store, log: Logger, sess: SessionRecord): void {
  const rec = store.agents.get(sess.agentId);
  const provider = rec && getProvider(rec.provider);
  if (!provider) return;
  const problem = keepTranscript(sess.exitPath, sess.stdoutPath, provider);
  if (problem) log.warn(`${rec.name} session ${sess.session}: ${problem}`);
}
