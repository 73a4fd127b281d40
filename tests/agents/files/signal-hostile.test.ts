import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { readAgentFile } from "../../../src/agents/files/untrusted-read.ts";
import { SIGNAL_TEXT_MAX_CHARS, clearSignalFile, readSignalFile, writeSignalFile } from "../../../src/agents/files/signal.ts";

// What an agent may leave at its signal path, read the way the daemon reads it. Each of
// these hung the daemon in open() or read until memory ran out before.

const base = realpathSync(mkdtempSync(join(tmpdir(), "troupe-hostile-")));
const outside = join(base, "outside");
const root = join(base, "agent", ".troupe");
const out = join(root, "output");
mkdirSync(out, { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(outside, "other.json"), JSON.stringify({ status: "done", result: "someone else's" }));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const limits = { maxBytes: 1024 * 1024, root };
let n = 0;
const fresh = () => join(out, `signal-${++n}.json`);

function mkfifo(path: string) {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo: ${r.stderr.toString()}`);
}

describe("readAgentFile refuses what is not a small regular file inside the agent's folder", () => {
  test("a FIFO is refused at once, without blocking", () => {
    const p = fresh();
    mkfifo(p);
    expect(readAgentFile(p, limits)).toEqual({ kind: "refused", reason: `${p} is a FIFO (named pipe), not a regular file` });
  });

  test("a link to /dev/zero is refused (it leads outside), and a device is never opened", () => {
    const p = fresh();
    symlinkSync("/dev/zero", p);
    expect(readAgentFile(p, limits)).toEqual({ kind: "refused", reason: `${p} leads outside the agent's folder (to /dev/zero)` });
    // with a root that holds /dev, the type check still refuses it
    expect(readAgentFile(p, { ...limits, root: "/" })).toEqual({ kind: "refused", reason: `${p} is a character device, not a regular file` });
  });

  test("a link out of the folder is refused; a link inside it is followed", () => {
    const p = fresh();
    symlinkSync(join(outside, "other.json"), p);
    expect(readAgentFile(p, limits).kind).toBe("refused");
    const inside = fresh();
    writeFileSync(join(out, "real.json"), "{}");
    symlinkSync(join(out, "real.json"), inside);
    expect(readAgentFile(inside, limits)).toEqual({ kind: "ok", text: "{}" });
  });

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

  test("a file over the cap is refused without being read whole (a 100 MB sparse file)", () => {
    const p = fresh();
    writeFileSync(p, "");
    truncateSync(p, 100 * 1024 * 1024);
    expect(readAgentFile(p, limits)).toEqual({ kind: "refused", reason: `${p} is larger than 1 MiB, the limit for this file` });
  });

  test("missing files and dangling links are missing", () => {
    expect(readAgentFile(join(out, "none.json"), limits)).toEqual({ kind: "missing" });
    const p = fresh();
    symlinkSync(join(out, "nowhere"), p);
    expect(readAgentFile(p, limits)).toEqual({ kind: "missing" });
  });
});

describe("signal text limits", () => {
  test("a result over the limit is truncated with a note; the status holds", () => {
    const p = fresh();
    writeSignalFile(p, { status: "done", result: `${"r".repeat(SIGNAL_TEXT_MAX_CHARS)}TAIL` });
    const read = readSignalFile(p);
    if (read.kind !== "ok" || read.signal.status !== "done") throw new Error(`unexpected ${JSON.stringify(read).slice(0, 200)}`);
    expect(read.signal.result).toStartWith("r".repeat(SIGNAL_TEXT_MAX_CHARS));
    expect(read.signal.result).not.toContain("TAIL");
    expect(read.signal.result).toEndWith(`[troupe: truncated to the first ${SIGNAL_TEXT_MAX_CHARS} of ${SIGNAL_TEXT_MAX_CHARS + 4} characters]`);
  });

  test("troupe signal refuses a signal over the file cap, and a directory in the way, with one clear line", () => {
    expect(() => writeSignalFile(fresh(), { status: "done", result: "x".repeat(2 * 1024 * 1024) })).toThrow(/larger than 1 MiB/);
    const p = fresh();
    mkdirSync(p);
    expect(() => writeSignalFile(p, { status: "done" })).toThrow(`${p} is a directory`);
    // the daemon clears it before the next session, so that session can signal
    clearSignalFile(p);
    writeSignalFile(p, { status: "done" });
    expect(readSignalFile(p)).toEqual({ kind: "ok", signal: { status: "done" } });
  });
});
