import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import type { ProviderCommand } from "../../providers/types.ts";
import { processStartTime } from "../process-info.ts";
import { userUmask } from "../file-modes.ts";

export interface SessionFiles {
  stdoutPath: string;
  stderrPath: string;
  exitPath: string;
  stdinPath: string;
}

export function sessionFiles(logsDir: string, session: number): SessionFiles {
  return {
    stdoutPath: join(logsDir, `${session}.out`),
    stderrPath: join(logsDir, `${session}.err`),
    exitPath: join(logsDir, `${session}.exit`),
    stdinPath: join(logsDir, `${session}.in`),
  };
}

export interface Launched {
  pid: number;
  pidStart: string | null;
  child: ChildProcess;
}

/**
 * Starts one session of an agent detached (its own session and process group), output to files,
 * so it outlives this daemon. A tiny sh wrapper records the exit status in a file, which is how a
 * later daemon that did not start the process learns how it ended.
 */
export function launchSession(cmd: ProviderCommand, cwd: string, env: Record<string, string>, files: SessionFiles): Promise<Launched> {
  const [bin] = cmd.argv;
  if (!bin) throw new TroupeError("spawn_failed", "empty command");
  rmSync(files.exitPath, { force: true });
  mkdirSync(join(files.stdoutPath, ".."), { recursive: true });
  const out = openSync(files.stdoutPath, "a");
  const err = openSync(files.stderrPath, "a");
  let stdin: number | "ignore" = "ignore";
  if (cmd.stdin !== undefined) {
    writeFileSync(files.stdinPath, cmd.stdin);
    stdin = openSync(files.stdinPath, "r");
  }
  // the agent's files in the repository are the user's: it runs under the umask the daemon was
  // started with; the exit file is written back under the daemon's private one
  const mask = userUmask();
  const script = `${mask === null ? "" : `umask ${mask.toString(8).padStart(4, "0")}; `}"$@"; code=$?; umask 077; printf "%s" "$code" > "$0.tmp" && mv "$0.tmp" "$0"; exit $code`;
  return new Promise((resolve, reject) => {
    const close = () => {
      closeSync(out);
      closeSync(err);
      if (typeof stdin === "number") closeSync(stdin);
    };
    let child: ChildProcess;
    try {
      // Bun throws some failures (E2BIG) here rather than emitting them
      child = spawn("/bin/sh", ["-c", script, files.exitPath, ...cmd.argv], {
        cwd,
        env: { ...env, ...cmd.env },
        detached: true,
        stdio: [stdin, out, err],
      });
    } catch (e) {
      close();
      reject(launchError(bin, e as NodeJS.ErrnoException));
      return;
    }
    child.once("error", (e) => {
      close();
      reject(launchError(bin, e));
    });
    child.once("spawn", () => {
      close();
      child.unref();
      const pid = child.pid!;
      resolve({ pid, pidStart: processStartTime(pid), child });
    });
  });
}

function launchError(bin: string, e: NodeJS.ErrnoException): TroupeError {
  if (e.code === "E2BIG") {
    return new TroupeError("bad_request", `could not start ${bin}: the command line and environment are too long for the kernel (E2BIG); pass long text through a file`, { cause: e });
  }
  return new TroupeError("spawn_failed", `could not start ${bin}: ${e.message}`, { cause: e });
}
