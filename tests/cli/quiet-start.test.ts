/**
 * The dashboard's start before it draws (src/cli/quiet-start.ts): the compiled binary restarts
 * itself in place with the runtime's quiet settings, and without a terminal refuses in one line.
 */
import { expect, test } from "bun:test";
import { openSync, readFileSync } from "node:fs";
import { BIN, BIN_RUNTIME, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { dashboardEnv } from "../../src/runtime/process.ts";

const QUIET = Object.entries(dashboardEnv()).map(([k, v]) => `${k}=${v}`);
const UNSET = [...Object.keys(dashboardEnv()), "TROUPE_QUIET_ADDED"];

function personEnv(sb: Sandbox): Record<string, string> {
  return Object.fromEntries(Object.entries(sb.env).filter(([k]) => !UNSET.includes(k))) as Record<string, string>;
}

test("without a terminal the dashboard refuses in one line, also when stdin and stdout are /dev/null (it restarts first)", async () => {
  const sb = new Sandbox();
  try {
    for (const io of ["pipe", "devnull"] as const) {
      const stdio = io === "pipe" ? "pipe" : openSync("/dev/null", "r+");
      const r = Bun.spawnSync([BIN], { env: personEnv(sb), cwd: sb.dir, stdin: stdio, stdout: stdio, stderr: "pipe" });
      expect(r.stderr.toString()).toBe("troupe: the dashboard needs a terminal; for scripts use troupe ls, troupe logs, troupe answer\n");
      expect(r.exitCode).toBe(2);
    }
  } finally {
    await sb.close();
  }
});

// Bun's quiet settings, by Bun's execve: a Deno build has neither (src/runtime/deno/process.ts)
test.skipIf(!HAVE_TMUX || BIN_RUNTIME === "deno")("the dashboard in a terminal runs with the quiet settings, in the process the shell started", async () => {
  const sb = new Sandbox();
  const term = new Terminal(sb);
  try {
    const shell = Number(term.format("#{pane_pid}"));
    term.type(`env ${UNSET.map((k) => `-u ${k}`).join(" ")} ${BIN}`);
    term.keys("Enter");
    await term.waitFor(/Agents \(\d+/);
    // env execs the binary, so the shell's child is the dashboard: restarted in place, not a new process
    const pid = await waitFor("the dashboard's pid", () => Number(readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim()) || undefined);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    for (const q of QUIET) expect(environ).toContain(q);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]).toBe(BIN);
  } finally {
    term.close();
    await sb.close();
  }
}, 30_000);
