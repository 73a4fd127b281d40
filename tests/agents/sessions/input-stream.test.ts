import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { launchSession, sessionFiles, type SessionFiles } from "../../../src/agents/processes/launch-detached.ts";
import { closeStream, lineState, streamOpen, writeLine } from "../../../src/agents/sessions/input-stream.ts";
import { waitFor } from "../../support/sandbox.ts";

/**
 * The session wrapper's feeder (FEED in launch-detached.ts) with a real process for an agent: a
 * shell that copies its stdin to its stdout, line by line, as a CLI taking input mid-run would
 * take it. No daemon holds anything: what the test writes into the folder is all there is.
 */
const tmp = mkdtempSync(join(tmpdir(), "troupe-input-stream-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
async function start(script = 'while IFS= read -r l; do printf "took %s\\n" "$l"; done'): Promise<{ files: SessionFiles; pid: number; out: () => string[] }> {
  const files = sessionFiles(join(tmp, `agent-${++n}`), 1);
  const launched = await launchSession({ argv: ["sh", "-c", script], stdin: "prompt\n", stdinStream: true }, tmp, { PATH: process.env.PATH ?? "/usr/bin:/bin" }, files);
  const out = () => (existsSync(files.stdoutPath) ? readFileSync(files.stdoutPath, "utf8").split("\n").filter(Boolean) : []);
  return { files, pid: launched.pid, out };
}
const exited = (files: SessionFiles) => waitFor("the session's exit status", () => existsSync(files.exitPath), 10_000);

describe("a session's input stream", () => {
  test("the prompt first, then each line once and in order, also one written before the feeder was up; close ends the run", async () => {
    const s = await start();
    // at once: the wrapper may not have made its FIFO yet (it reads the folder before it waits)
    writeLine(s.files.inputDir, 1, "one");
    await waitFor("one taken", () => s.out().includes("took one"), 10_000);
    writeLine(s.files.inputDir, 2, "two");
    writeLine(s.files.inputDir, 3, "three");
    await waitFor("three taken", () => s.out().includes("took three"), 10_000);
    expect(lineState(s.files.inputDir, 2)).toBe("fed");
    expect(lineState(s.files.inputDir, 4)).toBe("missing");
    expect(streamOpen(s.files.inputDir)).toBe(true);
    closeStream(s.files.inputDir);
    await exited(s.files);
    expect(s.out()).toEqual(["took prompt", "took one", "took two", "took three"]);
    expect(readFileSync(s.files.exitPath, "utf8")).toBe("0");
    expect(streamOpen(s.files.inputDir)).toBe(false);
  });

  test("a line left in the folder (written, never fed) is fed when the feeder is woken, and never twice", async () => {
    const s = await start();
    writeLine(s.files.inputDir, 1, "a");
    await waitFor("a taken", () => s.out().includes("took a"), 10_000);
    // a restarted daemon writes again only what is `missing`; a line already fed stays in sent/
    expect(lineState(s.files.inputDir, 1)).toBe("fed");
    writeLine(s.files.inputDir, 2, "b");
    closeStream(s.files.inputDir);
    await exited(s.files);
    expect(s.out()).toEqual(["took prompt", "took a", "took b"]);
  });

  test("an agent that ends on its own closes its stream: the feeder does not outlive it", async () => {
    const s = await start("read -r l; echo bye");
    await exited(s.files);
    expect(readFileSync(s.files.exitPath, "utf8")).toBe("0");
    await waitFor("the wrapper gone", () => {
      try {
        process.kill(s.pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 10_000);
    expect(streamOpen(s.files.inputDir)).toBe(false);
  });

  test("the agent does not hold the wake FIFO or the folder: a tool it runs cannot eat the wakes", async () => {
    const s = await start('read -r l; echo "$$" ; sleep 30');
    const agentPid = await waitFor("the agent's pid", () => s.out()[0], 10_000);
    const fds = readdirSync(`/proc/${agentPid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${agentPid}/fd/${fd}`);
      } catch {
        return "";
      }
    });
    expect(fds.some((f) => f.startsWith(s.files.inputDir))).toBe(false);
    process.kill(-s.pid, "SIGKILL");
  });
});
