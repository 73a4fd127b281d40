import { spawn } from "node:child_process";
import { constants } from "node:os";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Agent } from "../protocol/entities.ts";
import { which } from "../runtime/process.ts";
import type { TroupeClient } from "./client.ts";

/** Variables that describe the person's terminal now, not the one the agent was spawned from. */
const TERMINAL_VARS = ["TERM", "COLORTERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "COLUMNS", "LINES", "SSH_TTY", "SSH_CONNECTION", "SSH_CLIENT"];

/** How often a detach is tried: the daemon may be restarting (the client starts it again). */
const DETACH_TRIES = 3;

export interface Attached {
  /** The agent after the attachment ended (back in its earlier status). */
  agent: Agent;
  /** The interactive CLI's exit status (128 + n for a signal), null when it did not start. */
  exitCode: number | null;
  /** Why the CLI could not start or the daemon could not be told, if so. */
  problem: string | null;
}

type AttachClient = Pick<TroupeClient, "attach" | "attachStarted" | "detach">;

/**
 * Runs an agent's session interactively on this terminal (`troupe attach`, the dashboard's `t`):
 * the daemon marks it attached and says what to run; the CLI gets the terminal (inherited stdio)
 * and ctrl+c is its own (this process ignores SIGINT meanwhile); its pid goes to the daemon,
 * which watches it end even if this process dies; at its exit the daemon is told, and the agent
 * is back in the status it had. The environment handed over holds the agent's secrets: it goes
 * to the process only, never to output.
 */
export async function runAttached(client: AttachClient, ref: string): Promise<Attached> {
  const a = await client.attach(ref);
  const env: Record<string, string> = { ...a.env };
  for (const k of TERMINAL_VARS) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  const [bin, ...args] = a.argv;
  const path = bin && (bin.includes("/") ? bin : which(bin, env.PATH ?? ""));
  let exitCode: number | null = null;
  let problem: string | null = null;
  if (!path) problem = `${bin} is not installed (not on the agent's PATH)`;
  else {
    const ignore = () => {};
    process.on("SIGINT", ignore);
    try {
      ({ exitCode, problem } = await runChild(path, args, a.cwd, env, (pid) => client.attachStarted(ref, { session: a.session, pid })));
    } finally {
      process.off("SIGINT", ignore);
    }
  }
  let agent: Agent | null = null;
  for (let i = 1; !agent; i++) {
    try {
      agent = await client.detach(ref, { session: a.session, exitCode });
    } catch (err) {
      // the daemon ends the attachment itself once the CLI is gone: this only makes it prompt
      if (i >= DETACH_TRIES) throw new TroupeError("daemon_unavailable", `the daemon was not told that the session ended (${errorMessage(err)}); it ends the attachment itself once the CLI is gone`);
    }
  }
  return { agent, exitCode, problem };
}

/** Spawns the CLI with the terminal, reports its pid, resolves with its exit status. */
function runChild(path: string, args: string[], cwd: string, env: Record<string, string>, started: (pid: number) => Promise<unknown>): Promise<{ exitCode: number | null; problem: string | null }> {
  return new Promise((resolve) => {
    let reported: Promise<string | null> = Promise.resolve(null);
    const child = spawn(path, args, { cwd, env, stdio: "inherit" });
    child.once("spawn", () => {
      reported = started(child.pid!).then(
        () => null,
        (err: unknown) => `the daemon did not watch the CLI: ${errorMessage(err)}`,
      );
    });
    child.once("error", (err) => resolve({ exitCode: null, problem: `could not start ${path}: ${err.message}` }));
    // the pid's report is settled first, so the detach that follows never overtakes it
    child.once("exit", (code, signal) => {
      const exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null);
      void reported.then((problem) => resolve({ exitCode, problem }));
    });
  });
}
