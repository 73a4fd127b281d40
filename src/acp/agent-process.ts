import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";

export interface AgentProcess {
  child: ChildProcess;
  /** The agent's stdin and stdout, as the web streams the ACP SDK reads and writes. */
  input: WritableStream<Uint8Array>;
  output: ReadableStream<Uint8Array>;
  /** Its exit status (128 + the signal's number when a signal ended it). */
  exited: Promise<number>;
  /** Ends the agent's whole group: SIGTERM, then SIGKILL 5 s later (the watcher's job, as when the runner dies). */
  end(): void;
}

/**
 * The agent runs in a process group of its own (`setsid`, where the system has it: macOS has
 * none, and the agent then stays in the session's group), its tools' processes with it, under a
 * small sh that holds a pipe from the runner on fd 3. When that pipe closes, however the runner
 * ended (`kill -9` included: Bun and Deno cannot ask the kernel for a pdeathsig), or because the
 * runner closed it to end the agent, the watcher sends the agent's group SIGTERM, then SIGKILL
 * when it is still there 5 s later. The sh and its watcher outlast a SIGTERM to the session's
 * group (`troupe stop`): the runner forwards that to the agent as a cancel, then ends its group;
 * the sh's exit is the agent's. The agent gets none of the watcher's fds, and no signal ignored;
 * its stdin is the runner's pipe (a background job's would be /dev/null).
 */
const WATCHED = [
  `trap : TERM; s=; command -v setsid >/dev/null 2>&1 && s=setsid`,
  `exec 4<&0; $s "$@" <&4 4<&- 3<&- & a=$!; exec 4<&-; g=-$a; [ -n "$s" ] || g=$a`,
  `{ trap '' TERM; read -r _ <&3; kill -TERM $g 2>/dev/null; n=0; while kill -0 $g 2>/dev/null && [ $n -lt 5 ]; do sleep 1; n=$((n+1)); done; kill -KILL $g 2>/dev/null; } & w=$!; exec 3<&-`,
  // a trapped TERM ends a wait early: wait again until the agent is really gone
  `while :; do wait $a; c=$?; kill -0 $a 2>/dev/null || break; done; kill -KILL $w 2>/dev/null; exit $c`,
].join("\n");

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Starts the agent CLI (`argv`) in `cwd`: stdio pipes to this runner, stderr to the session's. */
export function startAgent(argv: readonly string[], cwd: string, env: Record<string, string>): AgentProcess {
  const child = spawn("/bin/sh", ["-c", WATCHED, "sh", ...argv], { cwd, env, stdio: ["pipe", "pipe", "inherit", "pipe"] });
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => resolve(code ?? 128 + (SIGNALS[signal ?? ""] ?? 1)));
  });
  return {
    child,
    input: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    output: Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    exited,
    end: () => (child.stdio[3] as { destroy?: () => void } | null)?.destroy?.(),
  };
}
