import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { SIGNAL_TEXT_MAX_CHARS, clearSignalFile, readSignalFile, signalText, writeSignalFile } from "../../../src/agents/files/signal.ts";

// What an agent may leave at its signal path, read the way the daemon reads it (the reader's own
// cases, FIFOs, devices and sizes, are in tests/guarded-fs.test.ts).

const base = realpathSync(mkdtempSync(join(tmpdir(), "troupe-hostile-")));
const outside = join(base, "outside");
const root = join(base, "agent", ".troupe");
const out = join(root, "output");
mkdirSync(out, { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(outside, "other.json"), JSON.stringify({ status: "done", result: "someone else's" }));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
const fresh = () => join(out, `signal-${++n}.json`);

describe("the signal file's folder", () => {
  test("a parent folder swapped for a link out of the folder is refused", () => {
    const agentRoot = join(base, "agent2", ".troupe");
    mkdirSync(agentRoot, { recursive: true });
    symlinkSync(outside, join(agentRoot, "output"));
    expect(readSignalFile(join(agentRoot, "output", "other.json")).kind).toBe("unreadable");
  });

  test("a directory says so", () => {
    const p = fresh();
    mkdirSync(p);
    expect(readSignalFile(p)).toEqual({ kind: "unreadable", reason: `${p} is a directory, not a regular file` });
  });
});

describe("signal text limits", () => {
  test("a result over the limit is truncated with a note; the status holds", () => {
    const p = fresh();
    writeSignalFile(p, base, signalText({ status: "done", result: `${"r".repeat(SIGNAL_TEXT_MAX_CHARS)}TAIL` }));
    const read = readSignalFile(p);
    if (read.kind !== "ok" || read.signal.status !== "done") throw new Error(`unexpected ${JSON.stringify(read).slice(0, 200)}`);
    expect(read.signal.result).toStartWith("r".repeat(SIGNAL_TEXT_MAX_CHARS));
    expect(read.signal.result).not.toContain("TAIL");
    expect(read.signal.result).toEndWith(`[troupe: truncated to the first ${SIGNAL_TEXT_MAX_CHARS} of ${SIGNAL_TEXT_MAX_CHARS + 4} characters]`);
  });

  test("troupe signal refuses a signal over the file cap, and a directory in the way, with one clear line", () => {
    expect(() => signalText({ status: "done", result: "x".repeat(2 * 1024 * 1024) })).toThrow(/larger than 1 MiB/);
    const p = fresh();
    mkdirSync(p);
    expect(() => writeSignalFile(p, base, signalText({ status: "done" }))).toThrow(`${p} is a directory`);
    // the daemon clears it before the next session, so that session can signal
    clearSignalFile(p, base);
    writeSignalFile(p, base, signalText({ status: "done" }));
    expect(readSignalFile(p)).toEqual({ kind: "ok", signal: { status: "done" } });
  });
});
