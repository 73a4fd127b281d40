import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../../errors.ts";
import type { ProviderCommand } from "../../../providers/types.ts";
import { processStartTime } from "../../process-info.ts";
import { userUmask } from "../../file-modes.ts";
import { removeIfPresent } from "../../runtime/portable/remove.ts";

export interface SessionFiles {
  stdoutPath: string;
  stderrPath: string;
  exitPath: string;
  stdinPath: string;
  /** The folder of a session whose stdin stays open (`stdinStream`): its input stream (src/agents/sessions/input-stream.ts). */
  inputDir: string;
}

export function sessionFiles(logsDir: string, session: number): SessionFiles {
  return {
    stdoutPath: join(logsDir, `${session}.out`),
    stderrPath: join(logsDir, `${session}.err`),
    exitPath: join(logsDir, `${session}.exit`),
    stdinPath: join(logsDir, `${session}.in`),
    inputDir: inputDirFor(join(logsDir, `${session}.exit`)),
  };
}

/** Where a session's wrapper writes its own pid (`$$`) before it starts anything. */
function pidFileFor(exitPath: string): string {
  return exitPath.replace(/\.exit$/, ".pid");
}

/** Where a session's wrapper writes the exit status of a failed `worktree.setup` (troupe's folder, never the agent's). */
function setupFileFor(exitPath: string): string {
  return exitPath.replace(/\.exit$/, ".setup");
}

/** The exit status of the session's failed `worktree.setup`; null when it did not fail (or had none). */
export function readSetupFailure(exitPath: string): number | null {
  return readNumberFile(setupFileFor(exitPath));
}

/** The input stream's folder of a session, from its exit file (it exists only for a session launched with one). */
export function inputDirFor(exitPath: string): string {
  return exitPath.replace(/\.exit$/, ".input");
}

/** The pid a session's wrapper recorded, or null (none yet, or not a pid). */
export function readPidFile(exitPath: string): number | null {
  return readNumberFile(pidFileFor(exitPath));
}

/** A whole number the wrapper wrote in troupe's logs folder; null when there is none (yet). */
function readNumberFile(path: string): number | null {
  try {
    const text = readFileSync(path, "utf8").trim();
    return /^\d+$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

export interface Launched {
  pid: number;
  pidStart: string | null;
  child: ChildProcess;
}

/**
 * What runs the agent when its stdin stays open (`stdinStream`): the wrapper feeds it, so the
 * stream outlives the daemon. Its stdin is a pipe from a feeder that first copies the prompt
 * (the wrapper's own stdin, the `.in` file), then, each time the FIFO `wake` in the input folder
 * has a byte, every `NNN.line` file there in order, each moved to `sent/` as it is copied. The
 * wrapper holds the FIFO open for reading and writing, so it never reads end-of-file while no
 * daemon runs, and a restarted daemon reopens it. The defined way to close the stream: a file
 * `close` in the folder, then a wake; the feeder ends and the agent reads end-of-file. The agent
 * ending on its own writes `close` too, so the feeder never outlives it. The agent does not get
 * the FIFO (`3>&-`): a tool it runs cannot eat the wakes.
 */
const FEED = [
  `mkfifo "$in/wake" 2>/dev/null; exec 3<>"$in/wake"`,
  `{ cat; while :; do for f in "$in"/*.line; do [ -f "$f" ] || continue; n=\${f##*/}; mv -f "$f" "$in/sent/$n" && cat "$in/sent/$n" || exit 0; done; ` +
    `[ -e "$in/close" ] && exit 0; read -r _ <&3 || exit 0; done; } | { "$@" 3>&-; c=$?; : > "$in/close"; echo >&3; exit $c; }`,
].join("\n");

/**
 * Starts one session of an agent detached (its own session and process group), output to files,
 * so it outlives this daemon. A tiny sh wrapper records its pid and the exit status in files, which
 * is how a later daemon that did not start the process finds it and learns how it ended; it also
 * runs the worktree's trusted `setup` first, when given (its failure, in `<n>.setup` beside the
 * exit status, ends the session as the agent's error: see session-signal.ts), and feeds a
 * `stdinStream` command its input stream (FEED).
 */
export function launchSession(cmd: ProviderCommand, cwd: string, env: Record<string, string>, files: SessionFiles, opts: { setup?: string | null; notes?: string[] } = {}): Promise<Launched> {
  const [bin] = cmd.argv;
  if (!bin) throw new TroupeError("spawn_failed", "empty command");
  removeIfPresent(files.exitPath);
  removeIfPresent(pidFileFor(files.exitPath));
  removeIfPresent(setupFileFor(files.exitPath));
  mkdirSync(join(files.stdoutPath, ".."), { recursive: true });
  const out = openSync(files.stdoutPath, "a");
  const err = openSync(files.stderrPath, "a");
  // troupe's own lines about this session (its sandbox), first in its output
  if (opts.notes?.length) writeSync(err, opts.notes.map((l) => `${l}\n`).join(""));
  let stdin: number | "ignore" = "ignore";
  if (cmd.stdinStream) {
    removeIfPresent(files.inputDir, { recursive: true });
    mkdirSync(join(files.inputDir, "sent"), { recursive: true, mode: 0o700 });
  }
  if (cmd.stdin !== undefined) {
    writeFileSync(files.stdinPath, cmd.stdin);
    stdin = openSync(files.stdinPath, "r");
  }
  // the agent's files in the repository are the user's: it runs under the umask the daemon was
  // started with; the exit, pid and signal files are written under the daemon's private one
  const mask = userUmask();
  const userMask = mask === null ? ":" : `umask ${mask.toString(8).padStart(4, "0")}`;
  // $0 exit file, $1 pid file, $2 setup command (may be empty), $3 the input folder (empty: stdin
  // is not a stream), then the agent's argv. The pid is on disk before anything runs, so a daemon
  // killed mid-launch leaves a process the next finds.
  const script = [
    `umask 077; printf "%s" "$$" > "$1.tmp" && mv "$1.tmp" "$1"; setup=$2; in=$3; shift 3; ${userMask}`,
    `if [ -n "$setup" ]; then echo "troupe: worktree.setup: $setup" >&2; sh -c "$setup" </dev/null; code=$?; if [ $code -ne 0 ]; then umask 077; ` +
      `printf "%s" "$code" > "\${0%.exit}.setup.tmp" && mv "\${0%.exit}.setup.tmp" "\${0%.exit}.setup"; ` +
      `printf "%s" "$code" > "$0.tmp" && mv "$0.tmp" "$0"; exit $code; fi; ${userMask}; fi`,
    `if [ -z "$in" ]; then "$@"; code=$?; else`,
    FEED,
    `code=$?; exec 3>&-; fi`,
    `umask 077; printf "%s" "$code" > "$0.tmp" && mv "$0.tmp" "$0"; exit $code`,
  ].join("\n");
  return new Promise((resolve, reject) => {
    const close = () => {
      closeSync(out);
      closeSync(err);
      if (typeof stdin === "number") closeSync(stdin);
    };
    let child: ChildProcess;
    try {
      // Bun throws some failures (E2BIG) here rather than emitting them
      // a command that takes its input folder itself (`ownInput`: the ACP runner) gets no feeder, only the folder's name
      const feed = cmd.stdinStream && !cmd.ownInput;
      child = spawn("/bin/sh", ["-c", script, files.exitPath, pidFileFor(files.exitPath), opts.setup ?? "", feed ? files.inputDir : "", ...cmd.argv], {
        cwd,
        env: { ...env, ...cmd.env, ...(cmd.ownInput && { TROUPE_SESSION_INPUT: files.inputDir }) },
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
