import { spawn } from "node:child_process";

/** How one run of `notify.command` went, for one log line. */
export type CommandOutcome = { ok: true } | { ok: false; why: string };

/** The last line it wrote to stderr (the usual place for why), cut short: nothing else of its output is kept. */
const lastLine = (s: string): string => (s.trim().split("\n").at(-1) ?? "").slice(0, 200);

/**
 * Runs `sh -c command` with `env` in `cwd`, stdin closed, in a process group of its own so a timeout kills
 * whatever it started too (a `curl` that hangs). Never rejects: a command that cannot start,
 * fails or outlives `timeoutMs` resolves with why.
 */
export interface NotifyRun {
  command: string;
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
}

export function runNotifyCommand({ command, env, cwd, timeoutMs }: NotifyRun): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    let err = "";
    let timedOut = false;
    const child = spawn("sh", ["-c", command], { env, cwd, stdio: ["ignore", "ignore", "pipe"], detached: true });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    timer.unref();
    child.stderr.on("data", (b: Buffer) => {
      if (err.length < 4096) err += b.toString("utf8");
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `cannot start sh: ${e.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ ok: false, why: `killed after ${timeoutMs / 1000} s` });
      if (signal) return resolve({ ok: false, why: `killed by ${signal}` });
      if (code !== 0) return resolve({ ok: false, why: `exited ${code}${lastLine(err) ? `: ${lastLine(err)}` : ""}` });
      resolve({ ok: true });
    });
  });
}
